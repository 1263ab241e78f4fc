extension CompositionTrack {
    /// True when `source` can be inserted into this track and decoded there, the rule behind
    /// ``MutableComposition/mutableTrack(compatibleWith:)`` (AVFoundation's `mutableTrackCompatibleWithTrack`).
    ///
    /// AVFoundation's observable rule: the same media type and a format the track can decode. An empty track (no
    /// segments) is compatible with any source of its media type; a track holding media with a source of the same
    /// media type and codec as its first source. Picture size, orientation (``preferredTransform``), sample rate and
    /// channel layout do not matter: each segment is decoded with its own source's facts, sizes and orientations are
    /// the layer instruction's job (`setTransform(_:at:)` per clip, as the AVFoundation tutorial does for a portrait
    /// clip after a landscape one), and audio is resampled to the output's rate and layout per segment.
    ///
    /// The track keeps one ``preferredTransform`` and ``naturalSize`` (those of its first source): a default video
    /// composition (`MutableVideoComposition(propertiesOf:)`) applies them to every clip of the track, so clips of
    /// different orientation in one track need their own layer transforms. That is why the whole-asset insert,
    /// the whole-asset `MutableComposition.insertTimeRange(_:of:at:)`, uses the stricter ``sharesFormat(with:)``.
    ///
    /// - Complexity: O(1).
    public func isCompatible(with source: AssetTrack) -> Bool {
        guard source.mediaType == mediaType else { return false }
        guard let first = firstSource else { return true }
        return first.codecName == source.codecName
    }

    /// True when `source` is ``isCompatible(with:)`` and also keeps the track's description: for video the same
    /// ``naturalSize`` and ``preferredTransform`` as the track, for audio the same sample rate and channel count as
    /// its first source. The rule the whole-asset insert uses to choose tracks, so a default video composition shows
    /// every clip of a track upright with the track's one transform.
    ///
    /// - Complexity: O(1).
    public func sharesFormat(with source: AssetTrack) -> Bool {
        guard isCompatible(with: source) else { return false }
        guard let first = firstSource else { return true }
        switch mediaType {
        case .video:
            return source.naturalSize == naturalSize && source.preferredTransform == preferredTransform
        case .audio:
            return first.audio?.sampleRate == source.audio?.sampleRate
                && first.audio?.channelCount == source.audio?.channelCount
        case .subtitle, .metadata, .data, .unknown:
            return true
        }
    }

    /// The source of the track's first media segment, or nil for a track without media.
    private var firstSource: AssetTrack? {
        // Empty segments never adjoin, so the first media segment is the first or the second.
        segments.prefix(2).first(where: { !$0.isEmpty })?.sourceTrack
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
