extension CompositionTrack {
    /// Inserts `range` of `track` at `startTime` played backwards (picture and sound), with the rules of
    /// ``insertTimeRange(_:of:at:)``: later content ripples right by `range.duration`. The segment's first frame is
    /// the range's last one; ``scaleTimeRange(_:toDuration:)`` may then change its speed.
    ///
    /// - Parameters:
    ///   - range: the source range (seconds), inside `track.timeRange`, at most
    ///     ``SegmentTimeEffect/maximumReversedDuration`` long.
    ///   - track: the source track (video or audio, matching this track).
    ///   - startTime: composition time (seconds) ≥ 0, or ``MediaTime/invalid`` to append.
    /// - Throws: what ``insertTimeRange(_:of:at:)`` throws, and
    ///   ``CompositionError/invalidTimeEffect(trackID:index:reason:)`` for a range longer than the reverse limit.
    ///   The track is unchanged when it throws.
    public mutating func insertReversedTimeRange(_ range: TimeRange, of track: AssetTrack, at startTime: MediaTime) throws {
        try insertSegment(
            range, of: track, targetDuration: range.duration, at: startTime, effect: .reverse,
            operation: "insertReversedTimeRange")
    }

    /// Inserts a freeze frame at `startTime`: the picture of `track` on screen at source time `sourceTime`, held for
    /// `duration` of composition time (video); on an audio track, `sound` for `duration`: silence, or the sound
    /// from `sourceTime` looped as room tone (``FreezeFrameSound`` gives the exact span and crossfades). Later
    /// content ripples right by `duration`.
    ///
    /// The segment's source range starts at `sourceTime` and lasts `duration` or up to the source's end, whichever
    /// is shorter; only its start matters.
    ///
    /// - Parameters:
    ///   - sourceTime: the source time (seconds) of the held picture, inside `track.timeRange`.
    ///   - track: the source track (its media type must match this track's).
    ///   - duration: how long the picture is held, in composition seconds, > 0.
    ///   - startTime: composition time (seconds) ≥ 0, or ``MediaTime/invalid`` to append.
    ///   - sound: what an audio track plays during the hold; ``FreezeFrameSound/silence`` by default.
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)``,
    ///   ``CompositionError/invalidTimeEffect(trackID:index:reason:)`` for room tone from an audio track with less
    ///   than ``FreezeFrameSound/minimumRoomToneSpan`` of sound,
    ///   ``CompositionError/sourceRangeOutsideSourceTrack(trackID:sourceURL:sourceTrackID:range:sourceTimeRange:)``
    ///   for a `sourceTime` outside the source, and what ``insertTimeRange(_:of:at:)`` throws. The track is unchanged
    ///   when it throws.
    public mutating func insertFreezeFrame(
        at sourceTime: MediaTime, of track: AssetTrack, duration: MediaTime, at startTime: MediaTime,
        sound: FreezeFrameSound = .silence
    ) throws {
        try Self.checkFinite(sourceTime, trackID: trackID, parameter: "sourceTime")
        try Self.checkPositiveDuration(duration, trackID: trackID, parameter: "duration")
        let sourceEnd = track.timeRange.end
        let available = sourceEnd.isNumeric ? try exactDifference(sourceEnd, sourceTime, operation: "insertFreezeFrame") : duration
        let source = TimeRange(start: sourceTime, duration: available > .zero ? Swift.min(duration, available) : duration)
        try Self.checkSourceRange(source, of: track, trackID: trackID)
        if sound == .roomTone, track.mediaType == .audio, track.timeRange.duration.isNumeric,
           track.timeRange.duration < FreezeFrameSound.minimumRoomToneSpan {
            throw CompositionError.invalidTimeEffect(
                trackID: trackID, index: segments.count,
                reason: "room tone loops at least \(FreezeFrameSound.minimumRoomToneSpan) of sound but the source track "
                    + "has \(track.timeRange.duration)")
        }
        try insertSegment(
            source, of: track, targetDuration: duration, at: startTime, effect: .freezeFrame(sound),
            operation: "insertFreezeFrame")
    }

    /// Inserts the source of `track` from `sourceStart` played through `ramp` at `startTime`: the segment lasts
    /// ``SpeedRamp/duration`` and reads ``SpeedRamp/sourceDuration`` of source, the source time at each composition
    /// time being the exact integral of the rate. Later content ripples right by the ramp's duration.
    ///
    /// - Parameters:
    ///   - ramp: the rate keys (offsets from the segment's start, rates in `1/32 ... 32`).
    ///   - sourceStart: the source time (seconds) read at the segment's start.
    ///   - track: the source track (its media type must match this track's).
    ///   - startTime: composition time (seconds) ≥ 0, or ``MediaTime/invalid`` to append.
    /// - Throws: ``CompositionError/invalidTimeEffect(trackID:index:reason:)`` for an invalid ramp or one whose
    ///   integral cannot be represented exactly;
    ///   ``CompositionError/sourceRangeOutsideSourceTrack(trackID:sourceURL:sourceTrackID:range:sourceTimeRange:)``
    ///   when the ramp reads past the source's end; what ``insertTimeRange(_:of:at:)`` throws.
    public mutating func insertSpeedRamp(
        _ ramp: SpeedRamp, from sourceStart: MediaTime, of track: AssetTrack, at startTime: MediaTime
    ) throws {
        if let problem = ramp.problem() {
            throw CompositionError.invalidTimeEffect(trackID: trackID, index: segments.count, reason: "the speed ramp: \(problem)")
        }
        guard let sourceDuration = ramp.sourceDuration else {
            throw CompositionError.invalidTimeEffect(
                trackID: trackID, index: segments.count, reason: "the speed ramp's integral is not an exact MediaTime")
        }
        let source = TimeRange(start: sourceStart, duration: sourceDuration)
        try insertSegment(
            source, of: track, targetDuration: ramp.duration, at: startTime, effect: .speedRamp(ramp),
            operation: "insertSpeedRamp")
    }

    /// Inserts one segment playing `source` of `track` over `targetDuration` from `startTime` with `effect`, with
    /// ``insertTimeRange(_:of:at:)``'s checks and rippling. A segment with a time effect never merges with its
    /// neighbours (``merged(_:_:)``).
    private mutating func insertSegment(
        _ source: TimeRange, of track: AssetTrack, targetDuration: MediaTime, at startTime: MediaTime,
        effect: SegmentTimeEffect, operation: String
    ) throws {
        let time = try checkInsertable(source, of: track, at: startTime, lasting: targetDuration, operation: operation)
        let target = TimeRange(start: time, duration: targetDuration)
        try Self.checkTimeEffect(effect, source: source, target: target, trackID: trackID, index: segments.count)
        let segment = CompositionTrackSegment(
            sourceTrack: track, timeMapping: TimeMapping(source: source, target: target), timeEffect: effect)
        apply(try splicePlan([segment], duration: targetDuration, at: time, operation: operation))
    }
}
