import AudioMix
import Composition

extension MutableAudioMix {
    /// This mix with every audio track of `composition` made `factor` times louder (a linear gain): each track's
    /// volume values and ramp ends multiplied by it (and the default 1.0 before its first entry), a track without parameters given a constant volume of `factor`.
    /// Mixing is a sum, so the whole mix is scaled by exactly `factor`; crossfade curves, which multiply the volumes,
    /// are unchanged.
    /// - Parameters:
    ///   - factor: linear gain (1 = unchanged), finite and ≥ 0.
    ///   - composition: the composition the mix applies to (its audio tracks are the mix's inputs).
    public func scaled(by factor: Double, for composition: MutableComposition) -> MutableAudioMix {
        var mix = self
        for track in composition.tracks(withMediaType: .audio) {
            if let index = mix.inputParameters.firstIndex(where: { $0.trackID == track.trackID }) {
                let entries = mix.inputParameters[index].volumes.entries
                var scaled: [Keyframes<Double>.Entry] = entries.map { entry in
                    switch entry {
                    case .value(let value, let time): return .value(value * factor, at: time)
                    case .ramp(var ramp):
                        ramp.startValue *= factor
                        ramp.endValue *= factor
                        return .ramp(ramp)
                    }
                }
                // Before its first entry a track plays at the default 1.0, which must be scaled too.
                if !entries.contains(where: { $0.start.isNumeric && $0.start <= .zero }) {
                    scaled.insert(.value(factor, at: .zero), at: 0)
                }
                mix.inputParameters[index].volumes = Keyframes(entries: scaled)
            } else {
                var parameters = AudioMixInputParameters(trackID: track.trackID)
                parameters.setVolume(factor, at: .zero)
                mix.inputParameters.append(parameters)
            }
        }
        return mix
    }
}
