import Composition

extension MutableComposition {
    /// Inserts `timeRange` of `sourceTrack` so that it overlaps the end of track `outgoingTrackID` by `duration`:
    /// the overlap a transition needs, made from two clips that would otherwise play back to back, as GES's
    /// auto-transitions and editly's `transition` do (the edit becomes `duration` shorter than the two clips).
    ///
    /// The clip goes on `incomingTrackID` — by default a new track of the source's media type (A/B roll: the two
    /// clips must be on different tracks to overlap) — starting at the outgoing track's end minus `duration`.
    /// Join the two with ``VideoCompositionInstruction/transition(_:from:to:timeRange:outgoingTransform:incomingTransform:easing:)``
    /// over the returned overlap (and, for sound, an `AudioCrossfade` over the same range).
    ///
    /// - Parameters:
    ///   - timeRange: source time of the incoming clip.
    ///   - sourceTrack: the incoming clip's source track.
    ///   - outgoingTrackID: the track whose last clip the new one overlaps.
    ///   - duration: the overlap, > 0 and at most both the incoming clip and the outgoing track.
    ///   - incomingTrackID: the track to insert into, or nil for a new one.
    /// - Returns: the incoming track and the overlap (composition time).
    /// - Throws: ``CompositionError/unknownTrackID(_:)`` for a missing track;
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)`` for an overlap that is not positive or
    ///   longer than either clip; ``CompositionError/invalidTrackID(_:)`` when `incomingTrackID` is the outgoing
    ///   track; what ``insertTimeRange(_:of:at:intoTrackWithID:)`` throws.
    @discardableResult
    public mutating func insertOverlapping(
        _ timeRange: TimeRange, of sourceTrack: AssetTrack, after outgoingTrackID: Int32, by duration: MediaTime,
        intoTrackWithID incomingTrackID: Int32? = nil
    ) throws -> (trackID: Int32, overlap: TimeRange) {
        guard let outgoing = track(withTrackID: outgoingTrackID) else { throw CompositionError.unknownTrackID(outgoingTrackID) }
        let outgoingEnd = outgoing.timeRange.end
        guard duration.isNumeric, duration > .zero, duration <= timeRange.duration, duration <= outgoingEnd else {
            throw CompositionError.nonPositiveDuration(trackID: outgoingTrackID, parameter: "transition duration", duration: duration)
        }
        if incomingTrackID == outgoingTrackID { throw CompositionError.invalidTrackID(outgoingTrackID) }
        let target = try incomingTrackID ?? addMutableTrack(withMediaType: sourceTrack.mediaType)
        let start = outgoingEnd - duration
        try insertTimeRange(timeRange, of: sourceTrack, at: start, intoTrackWithID: target)
        return (target, TimeRange(start: start, duration: duration))
    }
}
