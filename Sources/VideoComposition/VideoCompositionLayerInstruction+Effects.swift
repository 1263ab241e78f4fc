import Composition
import Foundation

extension VideoCompositionLayerInstruction {
    /// Sets `parameter`'s amount from `time` on (in the parameter's unit, ``VideoEffectParameter``), on the layer's
    /// first effect of that parameter, adding one at the end of ``effects`` when there is none.
    public mutating func setEffect(_ parameter: VideoEffectParameter, _ value: Double, at time: MediaTime) {
        updateEffect(parameter) { $0.setValue(value, at: time) }
    }

    /// Ramps `parameter` from `start` to `end` over `timeRange` (composition time), as the opacity ramps, on the
    /// layer's first effect of that parameter (added at the end of ``effects`` when there is none).
    public mutating func setEffectRamp(
        _ parameter: VideoEffectParameter, from start: Double, to end: Double, timeRange: TimeRange, easing: Easing = .linear
    ) {
        updateEffect(parameter) { $0.setRamp(from: start, to: end, timeRange: timeRange, easing: easing) }
    }

    /// Adds a 3D lookup table read from the `.cube` file at `url` at the end of ``effects``.
    public mutating func addLookupTable(_ url: URL) {
        effects.append(.lookupTable(url))
    }

    /// The amount of the layer's first `parameter` effect at composition time `time`; the parameter's neutral value
    /// when the layer has none or before its first entry.
    public func effect(_ parameter: VideoEffectParameter, at time: MediaTime) -> Double {
        for case .adjustment(parameter, let keyframes) in effects {
            return keyframes.value(at: time, default: parameter.neutralValue)
        }
        return parameter.neutralValue
    }

    /// The effects to draw at composition time `time`, in order, each evaluated; effects at their neutral value
    /// are left out (they draw nothing).
    public func effectValues(at time: MediaTime) -> [VideoEffectValue] {
        effects.compactMap { $0.value(at: time) }
    }

    private mutating func updateEffect(_ parameter: VideoEffectParameter, _ change: (inout Keyframes<Double>) -> Void) {
        if let index = effects.firstIndex(where: { $0.parameter == parameter }),
           case .adjustment(_, var keyframes) = effects[index] {
            change(&keyframes)
            effects[index] = .adjustment(parameter, keyframes)
        } else {
            var keyframes = Keyframes<Double>()
            change(&keyframes)
            effects.append(.adjustment(parameter, keyframes))
        }
    }
}
