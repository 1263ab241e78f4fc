import Composition

extension MutableVideoComposition {
    /// The problems of an instruction's ``VideoCompositionInstruction/transition``: its two tracks must differ and be
    /// the instruction's only two layers (the renderer draws each over the background and joins the two pictures),
    /// and its style must be drawn by `xfade` (a cross-dissolve is written as opacity ramps, see
    /// ``VideoCompositionInstruction/crossDissolve(from:to:timeRange:outgoingTransform:incomingTransform:easing:)``).
    static func transitionIssues(of instruction: VideoCompositionInstruction, at index: Int) -> [ValidationIssue] {
        guard let transition = instruction.transition else { return [] }
        let place = "instruction \(index)"
        func issue(_ message: String, trackID: Int32? = nil) -> ValidationIssue {
            ValidationIssue(kind: .invalidTransition, instructionIndex: index, trackID: trackID,
                            time: instruction.timeRange.start, message: "\(place): \(message)")
        }
        var issues: [ValidationIssue] = []
        if transition.style == .crossDissolve {
            issues.append(issue("the transition style crossDissolve is drawn with opacity ramps; write it with "
                                + "VideoCompositionInstruction.crossDissolve or layer opacity ramps, not as a transition"))
        }
        if transition.fromTrackID == transition.toTrackID {
            issues.append(issue("the transition goes from track \(transition.fromTrackID) to the same track",
                                trackID: transition.fromTrackID))
        }
        let drawn = Set(instruction.requiredSourceTrackIDs)
        for trackID in [transition.fromTrackID, transition.toTrackID] where !drawn.contains(trackID) {
            issues.append(issue("the transition's track \(trackID) has no layer instruction here", trackID: trackID))
        }
        let others = drawn.subtracting([transition.fromTrackID, transition.toTrackID])
        if !others.isEmpty {
            issues.append(issue("a transition instruction draws only its two tracks, but it also has layers for "
                                + "track(s) \(others.sorted().map(String.init).joined(separator: ", "))"))
        }
        return issues
    }
}
