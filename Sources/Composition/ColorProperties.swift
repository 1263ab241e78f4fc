/// Colour description of a video track, with FFmpeg's names for each property (ITU-T H.273 code points), as the
/// loader read them from the codec parameters, plus the HDR10 static metadata the file carries.
///
/// The export engine converts each picture from this description, so correcting a wrongly tagged file is a matter of
/// editing the track's `video.color` before inserting it into a composition (the loader never guesses: an untagged
/// file says `unknown`, and the engine then applies the convention in docs/document-format.md — BT.709 for HD,
/// BT.601 for SD).
public struct ColorProperties: Sendable, Hashable, Codable {
    /// Sample range: limited ("tv", 16–235) or full ("pc", 0–255).
    public enum Range: String, Sendable, Hashable, Codable {
        /// 16–235 luma (broadcast/"tv" range): most video.
        case limited
        /// 0–255 (JPEG/"pc" range): e.g. iPhone Live Photo `yuvj420p`, still images.
        case full
        /// Not stated by the file; treated as limited for YUV and full for RGB.
        case unspecified
    }

    /// Limited or full range.
    public var range: Range
    /// Colour primaries (`bt709`, `bt470bg`, `smpte170m`, `bt2020`, `unknown`).
    public var primaries: String
    /// Transfer characteristic (`bt709`, `smpte2084`, `arib-std-b67`, `unknown`).
    public var transfer: String
    /// YUV matrix coefficients (`bt709`, `smpte170m`, `bt470bg`, `bt2020nc`, `unknown`).
    public var matrix: String
    /// Bits per component of the decoded pictures (8 for most phone video, 10 for HDR).
    public var bitDepth: Int
    /// The mastering display (SMPTE ST 2086) the file states, from its `mdcv` box or, failing that, the first
    /// picture's SEI; nil when it states none (iPhone HLG usually does not).
    public var masteringDisplay: MasteringDisplay?
    /// MaxCLL / MaxFALL (CTA-861.3) the file states (`clli` box or the first picture's SEI), nil when none.
    public var contentLightLevel: ContentLightLevel?

    /// A colour description; defaults describe an unspecified 8-bit source.
    public init(
        range: Range = .unspecified, primaries: String = "unknown", transfer: String = "unknown",
        matrix: String = "unknown", bitDepth: Int = 8, masteringDisplay: MasteringDisplay? = nil,
        contentLightLevel: ContentLightLevel? = nil
    ) {
        self.range = range
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.bitDepth = bitDepth
        self.masteringDisplay = masteringDisplay
        self.contentLightLevel = contentLightLevel
    }

    /// SDR, or HDR by its transfer function: HLG (`arib-std-b67`, ARIB STD-B67 / BT.2100) or PQ (`smpte2084`,
    /// SMPTE ST 2084 / BT.2100). Every other transfer, `unknown` included, is SDR.
    public var dynamicRange: DynamicRange {
        switch transfer {
        case "arib-std-b67": return .hlg
        case "smpte2084": return .pq
        default: return .sdr
        }
    }

    /// The brightest light the content reaches, in cd/m², as a tone mapper should assume it: for PQ the largest of
    /// MaxCLL and the mastering display's maximum luminance, else 1000; for HLG 1000 (the BT.2100 reference display,
    /// on which HLG 75 % is 203 cd/m²); for SDR 203 (BT.2408's SDR reference white in an HDR context).
    public var peakLuminance: Double {
        switch dynamicRange {
        case .sdr: return 203
        case .hlg: return 1000
        case .pq:
            let stated = [contentLightLevel.map { Double($0.maxContentLightLevel) }, masteringDisplay?.maxLuminance]
                .compactMap { $0 }.filter { $0 > 0 }
            return stated.max() ?? 1000
        }
    }
}

/// SDR or the HDR transfer function of a picture (BT.2100).
public enum DynamicRange: String, Sendable, Hashable, Codable, CaseIterable {
    /// Standard dynamic range (BT.709 / BT.1886 and their SD relatives).
    case sdr
    /// Hybrid log-gamma (ARIB STD-B67, BT.2100): iPhone HDR video.
    case hlg
    /// Perceptual quantizer (SMPTE ST 2084, BT.2100): HDR10.
    case pq

    /// How `splice probe` shows it: `SDR`, `HDR (HLG)`, `HDR (PQ)`.
    public var displayName: String {
        switch self {
        case .sdr: return "SDR"
        case .hlg: return "HDR (HLG)"
        case .pq: return "HDR (PQ)"
        }
    }
}

/// The colour volume of the display a programme was mastered on (SMPTE ST 2086; FFmpeg's
/// `AVMasteringDisplayMetadata`, HEVC's mastering-display SEI, MP4's `mdcv` box).
public struct MasteringDisplay: Sendable, Hashable, Codable {
    /// CIE 1931 chromaticity of the red primary (x, y), each 0 ... 1.
    public var red: Chromaticity
    /// CIE 1931 chromaticity of the green primary.
    public var green: Chromaticity
    /// CIE 1931 chromaticity of the blue primary.
    public var blue: Chromaticity
    /// CIE 1931 chromaticity of the white point (D65 is 0.3127, 0.3290).
    public var whitePoint: Chromaticity
    /// Minimum luminance in cd/m² (e.g. 0.0001).
    public var minLuminance: Double
    /// Maximum luminance in cd/m² (e.g. 1000).
    public var maxLuminance: Double

    /// A mastering display description.
    public init(red: Chromaticity, green: Chromaticity, blue: Chromaticity, whitePoint: Chromaticity,
                minLuminance: Double, maxLuminance: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.whitePoint = whitePoint
        self.minLuminance = minLuminance
        self.maxLuminance = maxLuminance
    }
}

/// A CIE 1931 xy chromaticity.
public struct Chromaticity: Sendable, Hashable, Codable {
    /// x, 0 ... 1.
    public var x: Double
    /// y, 0 ... 1.
    public var y: Double

    /// The chromaticity (x, y).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Content light level (CTA-861.3; FFmpeg's `AVContentLightMetadata`, MP4's `clli` box).
public struct ContentLightLevel: Sendable, Hashable, Codable {
    /// MaxCLL: the brightest pixel of the programme, cd/m².
    public var maxContentLightLevel: Int
    /// MaxFALL: the brightest frame-average light level, cd/m².
    public var maxFrameAverageLightLevel: Int

    /// A content light level.
    public init(maxContentLightLevel: Int, maxFrameAverageLightLevel: Int) {
        self.maxContentLightLevel = maxContentLightLevel
        self.maxFrameAverageLightLevel = maxFrameAverageLightLevel
    }
}
