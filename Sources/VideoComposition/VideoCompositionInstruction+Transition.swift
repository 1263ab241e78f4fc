import Composition

extension VideoCompositionInstruction {
    /// An instruction that goes from one track to another over `timeRange` (the range where the two tracks overlap)
    /// in `style`, as GES's transitions and editly's `transition` do.
    ///
    /// ``VideoTransitionStyle/crossDissolve`` gives exactly
    /// ``crossDissolve(from:to:timeRange:outgoingTransform:incomingTransform:easing:)`` (opacity ramps, no
    /// ``transition``). Every other style gives the two layers (outgoing first) at opacity 1 and a
    /// ``VideoTransition`` that the renderer draws with FFmpeg's `xfade`.
    ///
    /// - Parameters:
    ///   - style: the picture of the transition.
    ///   - outgoingTrackID: the track visible at the start of the range (A).
    ///   - incomingTrackID: the track visible at its end (B).
    ///   - timeRange: composition time of the transition.
    ///   - outgoingTransform: the outgoing layer's transform.
    ///   - incomingTransform: the incoming layer's transform.
    ///   - easing: the progress curve; linear by default.
    public static func transition(
        _ style: VideoTransitionStyle, from outgoingTrackID: Int32, to incomingTrackID: Int32, timeRange: TimeRange,
        outgoingTransform: AffineTransform2D = .identity, incomingTransform: AffineTransform2D = .identity,
        easing: Easing = .linear
    ) -> VideoCompositionInstruction {
        if style == .crossDissolve {
            return crossDissolve(from: outgoingTrackID, to: incomingTrackID, timeRange: timeRange,
                                 outgoingTransform: outgoingTransform, incomingTransform: incomingTransform, easing: easing)
        }
        var outgoing = VideoCompositionLayerInstruction(trackID: outgoingTrackID)
        outgoing.setTransform(outgoingTransform, at: timeRange.start)
        var incoming = VideoCompositionLayerInstruction(trackID: incomingTrackID)
        incoming.setTransform(incomingTransform, at: timeRange.start)
        return VideoCompositionInstruction(
            timeRange: timeRange, layerInstructions: [outgoing, incoming],
            transition: VideoTransition(style: style, from: outgoingTrackID, to: incomingTrackID, easing: easing))
    }
}
