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
    ///   ``CompositionError/sourceRangeOutsideSourceTrack(trackID:sourceURL:sourceTrackID:range:sourceTimeRange:)``;
    ///   ``CompositionError/timeNotRepresentable(trackID:operation:time:)`` if an exact boundary overflows.
    ///   The track is unchanged when it throws.
    /// - Complexity: O(1) amortised when appending, O(n) in the number of segments otherwise.
    public mutating func insertTimeRange(_ range: TimeRange, of track: AssetTrack, at startTime: MediaTime) throws {
        try Self.checkFinite(range.start, trackID: trackID, parameter: "timeRange.start")
        try Self.checkPositiveDuration(range.duration, trackID: trackID, parameter: "timeRange.duration")
        guard track.mediaType == mediaType else {
            throw CompositionError.mediaTypeMismatch(
                trackID: trackID, trackMediaType: mediaType, sourceTrackID: track.trackID, sourceMediaType: track.mediaType)
        }
        try Self.checkSourceRange(range, of: track, trackID: trackID)
        let time = try insertionTime(startTime)
        let target = TimeRange(start: time, duration: range.duration)
        _ = try exactSum(time, range.duration, operation: "insertTimeRange")
        let segment = CompositionTrackSegment(sourceTrack: track, timeMapping: TimeMapping(source: range, target: target))
        try splice([segment], duration: range.duration, at: time, operation: "insertTimeRange")
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
        try Self.checkTargetRange(range, trackID: trackID)
        guard range.start < end else {
            throw CompositionError.emptyRangeAtEnd(trackID: trackID, range: range, trackEnd: end)
        }
        try splice(
            [CompositionTrackSegment(emptyTimeRange: range)], duration: range.duration, at: range.start,
            operation: "insertEmptyTimeRange")
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
        try Self.checkTargetRange(range, trackID: trackID)
        let operation = "removeTimeRange"
        let trackEnd = end
        let start = range.start
        guard start < trackEnd else { return }
        let rangeEnd = try exactSum(start, range.duration, operation: operation)
        let stop = Swift.min(rangeEnd, trackEnd)
        let removed = try exactDifference(.zero, try exactDifference(stop, start, operation: operation), operation: operation)

        let first = segmentIndex(containing: start)
        let last = stop < trackEnd ? segmentIndex(containing: stop) : segments.count
        var result = Array(segments[..<first])
        result.reserveCapacity(segments.count + 1)
        let cutAtStart = segments[first]
        if cutAtStart.timeMapping.target.start < start {
            result.append(try piece(
                of: cutAtStart, from: cutAtStart.timeMapping.target.start, to: start, operation: operation))
        }
        if last < segments.count {
            let cutAtStop = segments[last]
            let remainder = cutAtStop.timeMapping.target.start < stop
                ? try piece(of: cutAtStop, from: stop, to: cutAtStop.timeMapping.target.end, operation: operation)
                : cutAtStop
            Self.appendMerging(try shifted(remainder, by: removed, operation: operation), to: &result)
            for later in segments[(last + 1)...] {
                result.append(try shifted(later, by: removed, operation: operation))
            }
        }
        while result.last?.isEmpty == true { result.removeLast() }
        segments = result
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
        try Self.checkTargetRange(range, trackID: trackID)
        try Self.checkPositiveDuration(duration, trackID: trackID, parameter: "duration")
        let operation = "scaleTimeRange"
        let start = range.start
        guard start < end, duration != range.duration else { return }
        let stop = try exactSum(start, range.duration, operation: operation)
        let delta = try exactDifference(duration, range.duration, operation: operation)

        // The new composition time of an old one.
        func mapped(_ time: MediaTime) throws -> MediaTime {
            if time <= start { return time }
            if time >= stop { return try exactSum(time, delta, operation: operation) }
            let offset = try exactDifference(time, start, operation: operation)
            guard let scaled = offset.multiplied(exactlyBy: duration, over: range.duration) else {
                throw CompositionError.timeNotRepresentable(trackID: trackID, operation: operation, time: time)
            }
            return try exactSum(start, scaled, operation: operation)
        }

        let first = segmentIndex(containing: start)
        var result = Array(segments[..<first])
        result.reserveCapacity(segments.count + 2)
        var cursor = segments[first].timeMapping.target.start
        for segment in segments[first...] {
            let target = segment.timeMapping.target
            if target.start >= stop {
                let moved = try shifted(segment, by: delta, operation: operation)
                if target.start == stop {
                    Self.appendMerging(moved, to: &result)
                } else {
                    result.append(moved)
                }
                continue
            }
            var cuts = [target.start]
            if target.start < start, start < target.end { cuts.append(start) }
            if target.start < stop, stop < target.end { cuts.append(stop) }
            cuts.append(target.end)
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                let part = try piece(of: segment, from: from, to: to, operation: operation)
                let newEnd = try mapped(to)
                let newTarget = TimeRange(start: cursor, duration: try exactDifference(newEnd, cursor, operation: operation))
                let isInside = from >= start && to <= stop
                if isInside, !part.isEmpty, !part.isStillImage {
                    try Self.checkSpeed(source: part.timeMapping.source, target: newTarget, trackID: trackID)
                }
                let retimed = Self.retimed(part, to: newTarget)
                if from == start || from == stop {
                    Self.appendMerging(retimed, to: &result)
                } else {
                    result.append(retimed)
                }
                cursor = newEnd
            }
        }
        segments = result
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
}
