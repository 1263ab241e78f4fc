extension CompositionTrack {
    /// Inserts `range` of `track` so that it starts at composition time `startTime`, as AVFoundation's
    /// `AVMutableCompositionTrack.insertTimeRange(_:of:at:)`.
    ///
    /// Later content ripples right by `range.duration`; nothing is overwritten. A segment spanning `startTime` is
    /// split there (its source split exactly through its speed). A `startTime` past the track's end leaves an empty
    /// segment in the gap; an invalid `startTime` (``MediaTime/invalid``) appends at the track's end. The inserted
    /// segment plays at speed 1. Inserting into an empty track sets ``preferredTransform``, ``naturalSize`` (video)
    /// and ``naturalTimeScale`` from `track`. A still image (whose time range is unbounded) can be inserted for any
    /// finite duration.
    ///
    /// - Parameters:
    ///   - range: the source range to insert, in source time (seconds); must lie inside `track.timeRange`.
    ///   - track: the source track; its media type must match this track's.
    ///   - startTime: where the range starts in composition time (seconds), ≥ 0, or ``MediaTime/invalid`` to append.
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)`` for a non-finite range start or duration
    ///   or a non-finite (but valid) `startTime`; ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)``;
    ///   ``CompositionError/negativeTime(trackID:parameter:time:)`` for `startTime` < 0;
    ///   ``CompositionError/mediaTypeMismatch(trackID:trackMediaType:sourceTrackID:sourceMediaType:)``;
    ///   ``CompositionError/unreadableTimedMetadata(trackID:sourceURL:sourceTrackID:)`` for a `mebx` timed metadata
    ///   source; ``CompositionError/sourceRangeOutsideSourceTrack(trackID:sourceURL:sourceTrackID:range:sourceTimeRange:)``;
    ///   ``CompositionError/timeNotRepresentable(trackID:operation:time:)`` if an exact boundary overflows.
    ///   The track is unchanged when it throws.
    /// - Complexity: O(1) amortised when appending, O(n) in the number of segments otherwise.
    public mutating func insertTimeRange(_ range: TimeRange, of track: AssetTrack, at startTime: MediaTime) throws {
        apply(try insertPlan(range, of: track, at: startTime))
    }

    /// Inserts an empty range (a gap: black video, silence) at `range.start`, rippling later content right by
    /// `range.duration`, as `AVMutableCompositionTrack.insertEmptyTimeRange(_:)`. An empty segment that meets another
    /// one merges with it.
    ///
    /// As in AVFoundation, the range must start before the track's end: a track never ends with an empty segment
    /// (to leave a gap before new content, insert that content past the end instead).
    ///
    /// - Parameter range: where the gap goes and how long it is, in composition time (seconds).
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/negativeTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)``,
    ///   ``CompositionError/emptyRangeAtEnd(trackID:range:trackEnd:)`` when `range.start` ≥ the track's end, or
    ///   ``CompositionError/timeNotRepresentable(trackID:operation:time:)``. The track is unchanged when it throws.
    /// - Complexity: O(n) in the number of segments.
    public mutating func insertEmptyTimeRange(_ range: TimeRange) throws {
        apply(try insertEmptyPlan(range))
    }

    /// Removes `range` of composition time and ripples later content left to close the hole, as
    /// `AVMutableCompositionTrack.removeTimeRange(_:)`.
    ///
    /// Segments crossing the range's edges are cut there (their sources cut exactly through their speed); pieces
    /// that meet contiguously merge. The part of `range` past the track's end has nothing to remove and is ignored
    /// (so a composition-wide remove can reach past a shorter track); a range starting at or after the end removes
    /// nothing. An empty segment left at the end is dropped. The track itself is never removed, even when it
    /// becomes empty.
    ///
    /// - Parameter range: the composition time to remove (seconds).
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/negativeTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)`` or
    ///   ``CompositionError/timeNotRepresentable(trackID:operation:time:)``. The track is unchanged when it throws.
    /// - Complexity: O(n) in the number of segments.
    public mutating func removeTimeRange(_ range: TimeRange) throws {
        if let edit = try removePlan(range) { apply(edit) }
    }

    /// Changes the duration of `range` of composition time to `duration`, as
    /// `AVMutableCompositionTrack.scaleTimeRange(_:toDuration:)`: the media inside plays at
    /// `range.duration / duration` times its previous speed (so a segment's speed is always
    /// `source.duration / target.duration`), later content shifts by `duration − range.duration`.
    ///
    /// Segments crossing the range's edges are cut there first; content before the range is untouched. The time
    /// map is the piecewise-linear `t ↦ start + (t − start) × duration / range.duration` inside the range, so a
    /// range reaching past the track's end scales the part that exists by the same factor (keeping tracks of a
    /// composition in sync); a range starting at or after the end changes nothing. Empty segments are stretched
    /// or shrunk like media. Video is retimed and audio tempo-changed (pitch kept) by the renderer.
    ///
    /// - Parameters:
    ///   - range: the composition time to retime (seconds).
    ///   - duration: its new duration (seconds), > 0.
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/negativeTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)``,
    ///   ``CompositionError/speedOutOfRange(trackID:sourceRange:targetRange:)`` when a scaled media segment would
    ///   play outside `1/32 ... 32` (``speedLimit``; still images are exempt), or
    ///   ``CompositionError/timeNotRepresentable(trackID:operation:time:)``. The track is unchanged when it throws.
    /// - Complexity: O(n) in the number of segments.
    public mutating func scaleTimeRange(_ range: TimeRange, toDuration duration: MediaTime) throws {
        if let edit = try scalePlan(range, toDuration: duration) { apply(edit) }
    }

    /// The composition time an insert starts at: `startTime`, or the track's end when `startTime` is invalid.
    func insertionTime(_ startTime: MediaTime) throws -> MediaTime {
        guard startTime.isValid else { return end }
        try Self.checkFinite(startTime, trackID: trackID, parameter: "startTime")
        guard startTime >= .zero else {
            throw CompositionError.negativeTime(trackID: trackID, parameter: "startTime", time: startTime)
        }
        return startTime
    }

    /// The checks every insert of source media makes before anything changes (``insertTimeRange(_:of:at:)`` and
    /// the time-effect inserts), in this order: `source` has a finite start and a finite duration > 0, `track` has
    /// this track's media type, `source` lies inside `track`'s time range, `startTime` is a valid insertion time
    /// (``insertionTime(_:)``), and the inserted segment's end, insertion time + `duration`, is an exact
    /// ``MediaTime``.
    ///
    /// - Parameters:
    ///   - source: the source time range read (seconds).
    ///   - track: the source track.
    ///   - startTime: composition time (seconds) ≥ 0, or ``MediaTime/invalid`` to append.
    ///   - duration: the composition duration (seconds) the inserted segment lasts.
    ///   - operation: the public operation's name, for ``CompositionError/timeNotRepresentable(trackID:operation:time:)``.
    /// - Returns: the composition time the segment starts at.
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)`` and
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)`` (parameters `timeRange.start`,
    ///   `timeRange.duration`), ``CompositionError/mediaTypeMismatch(trackID:trackMediaType:sourceTrackID:sourceMediaType:)``,
    ///   ``CompositionError/unreadableTimedMetadata(trackID:sourceURL:sourceTrackID:)``,
    ///   ``CompositionError/sourceRangeOutsideSourceTrack(trackID:sourceURL:sourceTrackID:range:sourceTimeRange:)``,
    ///   what ``insertionTime(_:)`` throws, ``CompositionError/timeNotRepresentable(trackID:operation:time:)``.
    func checkInsertable(
        _ source: TimeRange, of track: AssetTrack, at startTime: MediaTime, lasting duration: MediaTime, operation: String
    ) throws -> MediaTime {
        try Self.checkFinite(source.start, trackID: trackID, parameter: "timeRange.start")
        try Self.checkPositiveDuration(source.duration, trackID: trackID, parameter: "timeRange.duration")
        guard track.mediaType == mediaType else {
            throw CompositionError.mediaTypeMismatch(
                trackID: trackID, trackMediaType: mediaType, sourceTrackID: track.trackID, sourceMediaType: track.mediaType)
        }
        try Self.checkReadable(track, trackID: trackID)
        try Self.checkSourceRange(source, of: track, trackID: trackID)
        let time = try insertionTime(startTime)
        _ = try exactSum(time, duration, operation: operation)  // the new end must be exact too
        return time
    }

    // MARK: - Plans (checked, nothing changed yet)

    /// Plans ``insertTimeRange(_:of:at:)``.
    func insertPlan(_ range: TimeRange, of track: AssetTrack, at startTime: MediaTime) throws -> SegmentEdit {
        let time = try checkInsertable(range, of: track, at: startTime, lasting: range.duration, operation: "insertTimeRange")
        let segment = CompositionTrackSegment(
            sourceTrack: track,
            timeMapping: TimeMapping(source: range, target: TimeRange(start: time, duration: range.duration)))
        return try splicePlan([segment], duration: range.duration, at: time, operation: "insertTimeRange")
    }

    /// Plans ``insertEmptyTimeRange(_:)``.
    func insertEmptyPlan(_ range: TimeRange) throws -> SegmentEdit {
        try Self.checkTargetRange(range, trackID: trackID)
        guard range.start < end else {
            throw CompositionError.emptyRangeAtEnd(trackID: trackID, range: range, trackEnd: end)
        }
        return try splicePlan(
            [CompositionTrackSegment(emptyTimeRange: range)], duration: range.duration, at: range.start,
            operation: "insertEmptyTimeRange")
    }

    /// Plans ``removeTimeRange(_:)``; nil when there is nothing to remove.
    func removePlan(_ range: TimeRange) throws -> SegmentEdit? {
        try Self.checkTargetRange(range, trackID: trackID)
        let operation = "removeTimeRange"
        let trackEnd = end
        let start = range.start
        guard start < trackEnd else { return nil }
        let rangeEnd = try exactSum(start, range.duration, operation: operation)
        let stop = Swift.min(rangeEnd, trackEnd)
        let removed = try exactDifference(stop, start, operation: operation)
        let moveBack = try exactDifference(.zero, removed, operation: operation)

        let first = segmentIndex(containing: start)
        let last = stop < trackEnd ? segmentIndex(containing: stop) : segments.count
        var replacement: [CompositionTrackSegment] = []
        let cutAtStart = segments[first]
        let firstStart = cutAtStart.timeMapping.target.start
        if firstStart < start {
            replacement.append(try piece(of: cutAtStart, from: firstStart, to: start, operation: operation))
        } else if first > 0 {
            // Re-form the previous segment so what follows the hole can merge with it.
            replacement.append(segments[first - 1])
        }
        let lower = firstStart < start ? first : Swift.max(0, first - 1)
        guard last < segments.count else {
            return SegmentEdit(
                replacedRange: lower ..< segments.count, replacement: replacement, laterStarts: [], adoptedSource: nil)
        }
        let cutAtStop = segments[last]
        let remainder = cutAtStop.timeMapping.target.start < stop
            ? try piece(of: cutAtStop, from: stop, to: cutAtStop.timeMapping.target.end, operation: operation)
            : cutAtStop
        Self.appendMerging(try shifted(remainder, by: moveBack, operation: operation), to: &replacement)
        return SegmentEdit(
            replacedRange: lower ..< last + 1, replacement: replacement,
            laterStarts: try laterStarts(from: last + 1, movedBy: moveBack, operation: operation), adoptedSource: nil)
    }

    /// Plans ``scaleTimeRange(_:toDuration:)``; nil when nothing changes.
    func scalePlan(_ range: TimeRange, toDuration duration: MediaTime) throws -> SegmentEdit? {
        try Self.checkTargetRange(range, trackID: trackID)
        try Self.checkPositiveDuration(duration, trackID: trackID, parameter: "duration")
        let operation = "scaleTimeRange"
        let start = range.start
        guard start < end, duration != range.duration else { return nil }
        let stop = try exactSum(start, range.duration, operation: operation)
        let delta = try exactDifference(duration, range.duration, operation: operation)

        // The new composition time of an old one inside the range.
        func mapped(_ time: MediaTime) throws -> MediaTime {
            if time >= stop { return try exactSum(time, delta, operation: operation) }
            let offset = try exactDifference(time, start, operation: operation)
            guard let scaled = offset.multiplied(exactlyBy: duration, over: range.duration) else {
                throw CompositionError.timeNotRepresentable(trackID: trackID, operation: operation, time: time)
            }
            return try exactSum(start, scaled, operation: operation)
        }

        let first = segmentIndex(containing: start)
        var replacement: [CompositionTrackSegment] = []
        var lower = first
        if segments[first].timeMapping.target.start == start, first > 0 {
            // Re-form the previous segment so the first scaled piece can merge with it.
            lower = first - 1
            replacement.append(segments[lower])
        }
        var cursor = segments[first].timeMapping.target.start
        var index = first
        // Segments overlapping the range: cut at its edges, retime the inside.
        while index < segments.count, segments[index].timeMapping.target.start < stop {
            let segment = segments[index]
            let target = segment.timeMapping.target
            var cuts = [target.start]
            if target.start < start, start < target.end { cuts.append(start) }
            if target.start < stop, stop < target.end { cuts.append(stop) }
            cuts.append(target.end)
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                let part = try piece(of: segment, from: from, to: to, operation: operation)
                let newEnd = to <= start ? to : try mapped(to)
                let newTarget = TimeRange(start: cursor, duration: try exactDifference(newEnd, cursor, operation: operation))
                if case .speedRamp = part.timeEffect, newTarget.duration != part.timeMapping.target.duration {
                    throw CompositionError.timeEffectCut(trackID: trackID, operation: operation, time: from)
                }
                if from >= start, to <= stop, !part.isEmpty, !part.isStillImage, part.timeEffect?.isFreezeFrame != true {
                    try Self.checkSpeed(source: part.timeMapping.source, target: newTarget, trackID: trackID)
                }
                let retimed = Self.retimed(part, to: newTarget)
                if from == start || from == stop {
                    Self.appendMerging(retimed, to: &replacement)
                } else {
                    replacement.append(retimed)
                }
                cursor = newEnd
            }
            index += 1
        }
        // The segment starting exactly at the range's end may merge with the last scaled piece.
        if index < segments.count, segments[index].timeMapping.target.start == stop {
            Self.appendMerging(try shifted(segments[index], by: delta, operation: operation), to: &replacement)
            index += 1
        }
        return SegmentEdit(
            replacedRange: lower ..< index, replacement: replacement,
            laterStarts: try laterStarts(from: index, movedBy: delta, operation: operation), adoptedSource: nil)
    }
}
