import Composition

extension VideoCompositionInstruction {
    /// An instruction that cross-dissolves from one track to another over `timeRange` (the range where the two
    /// tracks overlap in the composition).
    ///
    /// The outgoing track is the top layer with an opacity ramp 1 → 0 over the range; the incoming track is below it
    /// at opacity 1 — the arrangement of Apple's AVFoundation editing samples. Drawn over the background, frame `k`
    /// is `α·outgoing + (1 − α)·incoming`, a true dissolve. (Ramping the incoming layer 0 → 1 as well would dip to the
    /// background mid-way: `0.5·outgoing + 0.25·incoming` at the middle.)
    ///
    /// - Parameters:
    ///   - outgoingTrackID: the track that is visible at the start of the range.
    ///   - incomingTrackID: the track that is visible at its end.
    ///   - timeRange: composition time of the transition.
    ///   - outgoingTransform: the outgoing layer's transform (e.g. from ``AffineTransform2D/placing(_:in:mode:)``).
    ///   - incomingTransform: the incoming layer's transform.
    ///   - easing: the curve of the dissolve; linear by default.
    public static func crossDissolve(
        from outgoingTrackID: Int32, to incomingTrackID: Int32, timeRange: TimeRange,
        outgoingTransform: AffineTransform2D = .identity, incomingTransform: AffineTransform2D = .identity,
        easing: Easing = .linear
    ) -> VideoCompositionInstruction {
        var outgoing = VideoCompositionLayerInstruction(trackID: outgoingTrackID)
        outgoing.setTransform(outgoingTransform, at: timeRange.start)
        outgoing.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: timeRange, easing: easing)
        var incoming = VideoCompositionLayerInstruction(trackID: incomingTrackID)
        incoming.setTransform(incomingTransform, at: timeRange.start)
        return VideoCompositionInstruction(timeRange: timeRange, layerInstructions: [outgoing, incoming])
    }
}
