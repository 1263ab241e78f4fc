/// The keyframable amount of a built-in per-frame effect (``VideoEffect/adjustment(_:_:)``): what it changes, its
/// unit, the values it accepts and the FFmpeg filter it compiles to.
///
/// Ranges are FFmpeg's own limits for the filter's option (or, where FFmpeg accepts more than makes sense, a
/// narrower range stated below). A value outside its range is a validation issue
/// (``ValidationIssue/Kind/effectOutOfRange``), never clamped. At its ``neutralValue`` an effect draws nothing (no
/// filter is inserted), so a ramp that starts or ends there blends into the untouched picture.
public enum VideoEffectParameter: String, Sendable, Hashable, Codable, CaseIterable {
    /// Added to the normalised luma, −1…1 (1 = the whole code range): FFmpeg's `eq=brightness`. Neutral 0.
    case brightness
    /// Luma contrast about mid-grey, −2…2 (negative inverts; 0 flattens to grey): FFmpeg's `eq=contrast`.
    /// Neutral 1.
    case contrast
    /// Chroma gain, 0…3 (0 = grey, R = G = B): FFmpeg's `eq=saturation`. Neutral 1.
    case saturation
    /// Exposure in stops (each doubles linear RGB), −3…3: FFmpeg's `exposure=exposure`. Neutral 0.
    case exposure
    /// White balance as a colour temperature in kelvin, 1000…40000 (below 6500 warmer, above cooler): FFmpeg's
    /// `colortemperature=temperature`. Neutral 6500.
    case temperature
    /// Gaussian blur, its standard deviation in render-canvas pixels, 0…256: FFmpeg's `gblur=sigma` (scaled to
    /// source pixels by the layer's transform). Neutral 0.
    case blur
    /// Unsharp-mask strength on luma, 0…5 (5 × 5 mask): FFmpeg's `unsharp=la`. Neutral 0.
    case sharpen
    /// Vignette lens angle in radians, 0…π/2 (larger is darker corners): FFmpeg's `vignette=angle`. Neutral 0.
    case vignette

    /// The value at which the effect changes nothing (no filter is drawn).
    public var neutralValue: Double {
        switch self {
        case .brightness, .exposure, .blur, .sharpen, .vignette: return 0
        case .contrast, .saturation: return 1
        case .temperature: return 6500
        }
    }

    /// The values the effect accepts (inclusive), in its unit.
    public var validRange: ClosedRange<Double> {
        switch self {
        case .brightness: return -1...1
        case .contrast: return -2...2
        case .saturation: return 0...3
        case .exposure: return -3...3
        case .temperature: return 1000...40000
        case .blur: return 0...256
        case .sharpen: return 0...5
        case .vignette: return 0...(Double.pi / 2)
        }
    }

    /// The unit of the value, for messages and documentation.
    public var unit: String {
        switch self {
        case .brightness: return "normalised luma offset"
        case .contrast, .saturation: return "gain"
        case .exposure: return "stops"
        case .temperature: return "kelvin"
        case .blur: return "canvas pixels (sigma)"
        case .sharpen: return "unsharp amount"
        case .vignette: return "radians"
        }
    }

    /// The FFmpeg filter the effect compiles to.
    public var filterName: String {
        switch self {
        case .brightness, .contrast, .saturation: return "eq"
        case .exposure: return "exposure"
        case .temperature: return "colortemperature"
        case .blur: return "gblur"
        case .sharpen: return "unsharp"
        case .vignette: return "vignette"
        }
    }
}
