import Composition
import Foundation

extension MutableVideoComposition {
    /// The problems of a layer's ``VideoCompositionLayerInstruction/effects``: keyframe problems as for opacity,
    /// amounts outside their parameter's range or not finite (``ValidationIssue/Kind/effectOutOfRange``), and lookup
    /// table files that are missing or malformed (``ValidationIssue/Kind/invalidLookupTable``, the message naming
    /// the file and line). Messages name the effect as `effect 1 (brightness)`, its index in the list.
    ///
    /// - Parameters:
    ///   - owner: the start of each message (`instruction 0, layer instruction for track 1`).
    ///   - instructionIndex: the instruction's index, for the issues.
    static func effectIssues(
        of layer: VideoCompositionLayerInstruction, owner: String, instructionIndex: Int, start: MediaTime?
    ) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for (index, effect) in layer.effects.enumerated() {
            switch effect {
            case .adjustment(let parameter, let keyframes):
                let range = parameter.validRange
                let location = ValidationIssue.Location(
                    parameter: "effect \(index) (\(parameter.rawValue))", owner: owner, instructionIndex: instructionIndex,
                    trackID: layer.trackID)
                issues += keyframes.validationIssues(at: location) { value in
                    value.isFinite && range.contains(value) ? nil
                        : (.effectOutOfRange, "is \(value) \(parameter.unit), outside \(range.lowerBound)...\(range.upperBound)")
                }
            case .lookupTable(let url):
                guard url.isFileURL else {
                    issues.append(ValidationIssue(
                        kind: .invalidLookupTable, instructionIndex: instructionIndex, trackID: layer.trackID, time: start,
                        message: "\(owner): effect \(index) (lookupTable) \(url.absoluteString) is not a file URL"))
                    continue
                }
                do {
                    _ = try CubeLookupTable(contentsOf: url)
                } catch {
                    issues.append(ValidationIssue(
                        kind: .invalidLookupTable, instructionIndex: instructionIndex, trackID: layer.trackID, time: start,
                        message: "\(owner): effect \(index) (lookupTable) \(error.description)"))
                }
            }
        }
        return issues
    }
}
