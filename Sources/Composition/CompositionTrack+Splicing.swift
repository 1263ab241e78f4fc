// The machinery behind the editing operations. Every edit is planned first — exact boundary arithmetic, cuts,
// merges, the new start of every later segment — as a `SegmentEdit`, which is where anything can fail; applying the
// plan cannot fail. So a track operation either completes or leaves the track as it was, and a composition-wide
// operation plans every track before changing any. Applying moves later segments in place (no copies of their
// source-track snapshots), so an edit costs O(n) small-integer work and memory moves.

extension CompositionTrack {
    /// Carries out a planned edit. Cannot fail.
    mutating func apply(_ edit: SegmentEdit) {
        if let source = edit.adoptedSource { adoptProperties(of: source) }
        segments.replaceSubrange(edit.replacedRange, with: edit.replacement)
        var index = edit.replacedRange.lowerBound + edit.replacement.count
        for start in edit.laterStarts {
            segments[index].timeMapping.target.start = start
            index += 1
        }
        while segments.last?.isEmpty == true { segments.removeLast() }
    }

    /// The target starts of the segments from `index` on, moved by `delta`.
    func laterStarts(from index: Int, movedBy delta: MediaTime, operation: String) throws -> [MediaTime] {
        var starts: [MediaTime] = []
        starts.reserveCapacity(Swift.max(0, segments.count - index))
        for segment in segments[index...] {
            starts.append(try exactSum(segment.timeMapping.target.start, delta, operation: operation))
        }
        return starts
    }

    /// `a + b` exactly, or ``CompositionError/timeNotRepresentable(trackID:operation:time:)``.
    func exactSum(_ a: MediaTime, _ b: MediaTime, operation: String) throws -> MediaTime {
        guard let sum = a.adding(exactly: b) else {
            throw CompositionError.timeNotRepresentable(trackID: trackID, operation: operation, time: a)
        }
        return sum
    }

    /// `a − b` exactly, or ``CompositionError/timeNotRepresentable(trackID:operation:time:)``.
    func exactDifference(_ a: MediaTime, _ b: MediaTime, operation: String) throws -> MediaTime {
        guard let difference = a.subtracting(exactly: b) else {
            throw CompositionError.timeNotRepresentable(trackID: trackID, operation: operation, time: a)
        }
        return difference
    }

    /// The part of `segment` that plays over composition time `[from, to)` (inside the segment's target range,
    /// `from < to`), with the source sub-range mapped exactly through the segment's speed.
    func piece(
        of segment: CompositionTrackSegment, from: MediaTime, to: MediaTime, operation: String
    ) throws -> CompositionTrackSegment {
        let target = segment.timeMapping.target
        if from == target.start, to == target.end { return segment }
        let newTarget = TimeRange(start: from, duration: try exactDifference(to, from, operation: operation))
        guard let source = segment.sourceTrack else { return CompositionTrackSegment(emptyTimeRange: newTarget) }
        switch segment.timeEffect {
        case .freezeFrame:
            // The held frame stays the same; only the composition range is cut (a room-tone piece restarts its loop).
            return CompositionTrackSegment(
                sourceTrack: source, timeMapping: TimeMapping(source: segment.timeMapping.source, target: newTarget),
                timeEffect: segment.timeEffect)
        case .speedRamp:
            throw CompositionError.timeEffectCut(trackID: trackID, operation: operation, time: from == target.start ? to : from)
        case .reverse, nil:
            break
        }
        var sourceStart = try sourceTime(at: from, in: segment, operation: operation)
        var sourceEnd = try sourceTime(at: to, in: segment, operation: operation)
        if segment.timeEffect == .reverse {
            // Played backwards: composition [from, to) reads the mirror image of the forward sub-range.
            let mirror = try exactSum(segment.timeMapping.source.start, segment.timeMapping.source.end, operation: operation)
            (sourceStart, sourceEnd) = (
                try exactDifference(mirror, sourceEnd, operation: operation),
                try exactDifference(mirror, sourceStart, operation: operation))
        }
        let newSource = TimeRange(
            start: sourceStart, duration: try exactDifference(sourceEnd, sourceStart, operation: operation))
        return CompositionTrackSegment(
            sourceTrack: source, timeMapping: TimeMapping(source: newSource, target: newTarget),
            timeEffect: segment.timeEffect)
    }

    /// The source time that plays at composition time `time` in a media segment:
    /// `source.start + (time − target.start) × source.duration / target.duration`, exactly.
    private func sourceTime(
        at time: MediaTime, in segment: CompositionTrackSegment, operation: String
    ) throws -> MediaTime {
        let mapping = segment.timeMapping
        if time == mapping.target.start { return mapping.source.start }
        if time == mapping.target.end { return mapping.source.end }
        let offset = try exactDifference(time, mapping.target.start, operation: operation)
        let sourceOffset: MediaTime?
        if mapping.source.duration == mapping.target.duration {
            sourceOffset = offset
        } else {
            sourceOffset = offset.multiplied(exactlyBy: mapping.source.duration, over: mapping.target.duration)
        }
        guard let sourceOffset else {
            throw CompositionError.timeNotRepresentable(trackID: trackID, operation: operation, time: time)
        }
        return try exactSum(mapping.source.start, sourceOffset, operation: operation)
    }

    /// `segment` moved by `delta` in composition time (its source range is unchanged).
    func shifted(
        _ segment: CompositionTrackSegment, by delta: MediaTime, operation: String
    ) throws -> CompositionTrackSegment {
        var moved = segment
        moved.timeMapping.target.start = try exactSum(segment.timeMapping.target.start, delta, operation: operation)
        return moved
    }

    /// `segment` with its target range replaced (its source range is unchanged).
    static func retimed(_ segment: CompositionTrackSegment, to target: TimeRange) -> CompositionTrackSegment {
        var moved = segment
        moved.timeMapping.target = target
        return moved
    }

    /// The single segment equivalent to `first` followed by `second` (which starts where `first` ends), or nil when
    /// they are not one continuous piece: both empty, or the same source track continued contiguously
    /// (`first.source.end == second.source.start`) at exactly the same speed, neither with a time effect; or two
    /// freeze frames of the same source range and sound.
    static func merged(_ first: CompositionTrackSegment, _ second: CompositionTrackSegment) -> CompositionTrackSegment? {
        let a = first.timeMapping, b = second.timeMapping
        if first.timeEffect?.isFreezeFrame == true, first.timeEffect == second.timeEffect, first.sourceTrack == second.sourceTrack,
           a.source == b.source, let targetDuration = a.target.duration.adding(exactly: b.target.duration) {
            // Two holds of the same frame are one longer hold.
            var joined = first
            joined.timeMapping.target = TimeRange(start: a.target.start, duration: targetDuration)
            return joined
        }
        // Other segments with time effects are never merged (a reversed pair would have to swap its source halves).
        guard first.timeEffect == nil, second.timeEffect == nil, first.isEmpty == second.isEmpty,
              let targetDuration = a.target.duration.adding(exactly: b.target.duration)
        else { return nil }
        let target = TimeRange(start: a.target.start, duration: targetDuration)
        guard let source = first.sourceTrack else { return CompositionTrackSegment(emptyTimeRange: target) }
        guard a.source.end == b.source.start,
              // Same speed: a.source / a.target == b.source / b.target, compared exactly.
              a.source.duration.multiplied(exactlyBy: b.target.duration, over: a.target.duration) == b.source.duration,
              source == second.sourceTrack,
              let sourceDuration = a.source.duration.adding(exactly: b.source.duration)
        else { return nil }
        return CompositionTrackSegment(
            sourceTrack: source,
            timeMapping: TimeMapping(source: TimeRange(start: a.source.start, duration: sourceDuration), target: target))
    }

    /// Appends `segment` to `list`, merging it into the last element when they form one continuous piece.
    static func appendMerging(_ segment: CompositionTrackSegment, to list: inout [CompositionTrackSegment]) {
        if let last = list.last, let combined = merged(last, segment) {
            list[list.count - 1] = combined
        } else {
            list.append(segment)
        }
    }

    /// Plans splicing `pieces` — consecutive segments tiling `[time, time + duration)` — into the track at
    /// composition time `time`, as every insert does: a segment spanning `time` is split, later segments ripple
    /// right by `duration`, and a time past the end leaves an empty segment in the gap. New boundaries merge where
    /// segments meet contiguously; trailing empty segments are dropped. An empty track adopts the first inserted
    /// source's properties.
    ///
    /// - Complexity: O(1) when appending at or after the end; O(n) otherwise.
    func splicePlan(
        _ pieces: [CompositionTrackSegment], duration: MediaTime, at time: MediaTime, operation: String
    ) throws -> SegmentEdit {
        let trackEnd = end
        if time >= trackEnd {
            // Append: re-form the last segment so the first piece can merge with it.
            var replacement = segments.last.map { [$0] } ?? []
            if time > trackEnd {
                let gap = try exactDifference(time, trackEnd, operation: operation)
                replacement.append(CompositionTrackSegment(emptyTimeRange: TimeRange(start: trackEnd, duration: gap)))
            }
            for segment in pieces { Self.appendMerging(segment, to: &replacement) }
            return SegmentEdit(
                replacedRange: Swift.max(0, segments.count - 1) ..< segments.count, replacement: replacement,
                laterStarts: [],
                adoptedSource: segments.isEmpty ? pieces.first(where: { !$0.isEmpty })?.sourceTrack : nil)
        }
        let index = segmentIndex(containing: time)
        let spanning = segments[index]
        let spanningStart = spanning.timeMapping.target.start
        var replacement: [CompositionTrackSegment] = []
        let replacedRange: Range<Int>
        let right: CompositionTrackSegment
        if spanningStart < time {
            replacedRange = index ..< index + 1
            replacement.append(try piece(of: spanning, from: spanningStart, to: time, operation: operation))
            right = try piece(of: spanning, from: time, to: spanning.timeMapping.target.end, operation: operation)
        } else {
            // At a boundary: re-form the previous segment so the first piece can merge with it.
            replacedRange = Swift.max(0, index - 1) ..< index + 1
            if index > 0 { replacement.append(segments[index - 1]) }
            right = spanning
        }
        for segment in pieces { Self.appendMerging(segment, to: &replacement) }
        Self.appendMerging(try shifted(right, by: duration, operation: operation), to: &replacement)
        return SegmentEdit(
            replacedRange: replacedRange, replacement: replacement,
            laterStarts: try laterStarts(from: index + 1, movedBy: duration, operation: operation), adoptedSource: nil)
    }
}
