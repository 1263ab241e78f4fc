import Composition
import Foundation

/// One built-in per-frame effect of a layer (``VideoCompositionLayerInstruction/effects``), compiled by the
/// renderer to one FFmpeg filter in the layer's chain. Effects apply in list order, to the layer's picture after
/// its crop and its conversion into the canvas's colour space, before its transform and opacity (so a vignette is
/// centred on the picture, not the canvas, and the image generator draws what export writes).
///
/// A Splice addition: AVFoundation leaves such effects to Core Image filters in a custom compositor.
public enum VideoEffect: Sendable, Hashable {
    /// An amount set at times and ramped over ranges like opacity (``Keyframes``); before its first entry the
    /// parameter's ``VideoEffectParameter/neutralValue`` holds.
    case adjustment(VideoEffectParameter, Keyframes<Double>)
    /// A 3D lookup table read from a `.cube` file (Adobe/Resolve format, ``CubeLookupTable``), applied in full
    /// range R′G′B′ with tetrahedral interpolation: FFmpeg's `lut3d`. The file is read and checked at validation.
    case lookupTable(URL)

    /// A constant amount of `parameter` from time 0.
    public static func constant(_ parameter: VideoEffectParameter, _ value: Double) -> VideoEffect {
        var keyframes = Keyframes<Double>()
        keyframes.setValue(value, at: .zero)
        return .adjustment(parameter, keyframes)
    }

    /// `parameter` ramped from `start` to `end` over `timeRange` (composition time), neutral before.
    public static func ramp(
        _ parameter: VideoEffectParameter, from start: Double, to end: Double, timeRange: TimeRange, easing: Easing = .linear
    ) -> VideoEffect {
        var keyframes = Keyframes<Double>()
        keyframes.setRamp(from: start, to: end, timeRange: timeRange, easing: easing)
        return .adjustment(parameter, keyframes)
    }

    /// The effect's parameter, nil for a lookup table.
    public var parameter: VideoEffectParameter? {
        if case .adjustment(let parameter, _) = self { return parameter }
        return nil
    }

    /// The effect at composition time `time`: its amount evaluated by the keyframe rules, or nil when that amount
    /// is the parameter's neutral value (nothing to draw).
    public func value(at time: MediaTime) -> VideoEffectValue? {
        switch self {
        case .adjustment(let parameter, let keyframes):
            let amount = keyframes.value(at: time, default: parameter.neutralValue)
            return amount == parameter.neutralValue ? nil : .adjustment(parameter, amount)
        case .lookupTable(let url):
            return .lookupTable(url)
        }
    }
}
