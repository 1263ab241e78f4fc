import Composition
import Foundation
import VideoComposition

extension ShortFormExpansion {
    /// A clip's short-form effects as layer effects in composition time: a `value` from the clip's start, or a ramp
    /// from `value` to `to` over the clip's whole time on screen (its transitions included). Problems (an unknown
    /// type, a missing or out-of-range amount, a missing or malformed `.cube` file with its line) are reported at
    /// `clips[i].effects[j]`; such an effect is left out.
    mutating func effects(of clip: PlacedClip) -> [VideoEffect] {
        var result: [VideoEffect] = []
        for (index, effect) in (clip.clip.effects ?? []).enumerated() {
            let path = DocumentPath("clips").appending(clip.index).appending("effects").appending(index)
            if effect.type == "lookupTable" {
                guard let file = effect.file else {
                    problems.add(path.appending("file"), "a lookupTable effect needs 'file', the .cube file")
                    continue
                }
                let url = DocumentSources.url(for: file, folder: folder)
                do {
                    _ = try CubeLookupTable(contentsOf: url)
                    result.append(.lookupTable(url))
                } catch {
                    problems.add(path.appending("file"), error.description)
                }
                continue
            }
            guard let parameter = VideoEffectParameter(rawValue: effect.type) else {
                let names = VideoEffectParameter.allCases.map(\.rawValue) + ["lookupTable"]
                problems.add(path.appending("type"), "'\(effect.type)' is not an effect: \(names.joined(separator: ", "))")
                continue
            }
            guard let value = effect.value else {
                problems.add(path.appending("value"), "a \(effect.type) effect needs 'value' (\(parameter.unit))")
                continue
            }
            let range = parameter.validRange
            var inRange = true
            for (key, amount) in [("value", value), ("to", effect.to)].compactMap({ pair in pair.1.map { (pair.0, $0) } })
            where !(amount.isFinite && range.contains(amount)) {
                problems.add(path.appending(key), "\(amount) \(parameter.unit) is outside \(range.lowerBound)…\(range.upperBound)")
                inRange = false
            }
            guard inRange else { continue }
            if let end = effect.to {
                result.append(.ramp(parameter, from: value, to: end, timeRange: TimeRange(start: clip.start, end: clip.end),
                                    easing: effect.easing ?? .linear))
            } else {
                result.append(.constant(parameter, value))
            }
        }
        return result
    }
}
