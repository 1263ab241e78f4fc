extension CompositionTrack {
    /// True when `source` can join this track without changing how the track's media is described, the rule behind
    /// ``MutableComposition/mutableTrack(compatibleWith:)`` (AVFoundation's `mutableTrackCompatibleWithTrack`).
    ///
    /// An empty track (no segments) is compatible with any source of its media type. A track holding media is
    /// compatible with a source of the same media type and codec as its first source and, for video, the same
    /// ``naturalSize`` and ``preferredTransform`` as the track (a track has one transform, so a portrait clip can't
    /// share a track with a landscape one); for audio, the same sample rate and channel count.
    ///
    /// - Complexity: O(1).
    public func isCompatible(with source: AssetTrack) -> Bool {
        guard source.mediaType == mediaType else { return false }
        // Empty segments never adjoin, so the first media segment is the first or the second.
        guard let first = segments.prefix(2).first(where: { !$0.isEmpty })?.sourceTrack else { return true }
        guard first.codecName == source.codecName else { return false }
        switch mediaType {
        case .video:
            return source.naturalSize == naturalSize && source.preferredTransform == preferredTransform
        case .audio:
            return first.audio?.sampleRate == source.audio?.sampleRate
                && first.audio?.channelCount == source.audio?.channelCount
        case .subtitle, .data, .unknown:
            return true
        }
    }

    /// Plans inserting `range` of `source` as part of a whole-asset insert: the part of `range` the source track covers is
    /// inserted as media, and the rest (where the track is shorter than the asset, e.g. audio that ends before the
    /// video) as empty segments, so the track ripples by the full `range.duration` and stays in sync with the
    /// asset's other tracks. A trailing empty part at the track's end is dropped.
    func assetTrackPlan(_ range: TimeRange, of source: AssetTrack, at time: MediaTime) throws -> SegmentEdit {
        let operation = "insertTimeRange"
        let rangeEnd = try exactSum(range.start, range.duration, operation: operation)
        let sourceRange = source.timeRange
        let lower = Swift.max(range.start, sourceRange.start)
        let upper = sourceRange.isValid ? Swift.min(rangeEnd, sourceRange.end) : lower
        var pieces: [CompositionTrackSegment] = []
        if upper > lower {
            var cursor = time
            let lead = try exactDifference(lower, range.start, operation: operation)
            if lead > .zero {
                pieces.append(CompositionTrackSegment(emptyTimeRange: TimeRange(start: cursor, duration: lead)))
                cursor = try exactSum(cursor, lead, operation: operation)
            }
            let overlap = TimeRange(start: lower, duration: try exactDifference(upper, lower, operation: operation))
            pieces.append(CompositionTrackSegment(
                sourceTrack: source,
                timeMapping: TimeMapping(source: overlap, target: TimeRange(start: cursor, duration: overlap.duration))))
            cursor = try exactSum(cursor, overlap.duration, operation: operation)
            let trail = try exactDifference(rangeEnd, upper, operation: operation)
            if trail > .zero {
                pieces.append(CompositionTrackSegment(emptyTimeRange: TimeRange(start: cursor, duration: trail)))
            }
        } else {
            pieces.append(CompositionTrackSegment(emptyTimeRange: TimeRange(start: time, duration: range.duration)))
        }
        return try splicePlan(pieces, duration: range.duration, at: time, operation: operation)
    }
}
