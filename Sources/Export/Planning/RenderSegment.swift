import Composition

/// One segment of a composition track as the renderer sees it: the source track (nil for an empty segment) and the
/// exact mapping of its source range onto composition time.
///
/// A segment with a time effect (reverse, freeze frame, speed ramp) keeps the effect and its whole mapping
/// (`effectMapping`, moved onto the export's clock), because the effect is defined over the whole segment: an export
/// range that starts inside a ramp still reads the ramp from its own start. `mapping` is then the clipped part:
/// its target is the range drawn, its source the source range that part reads (for a reverse, the mirrored
/// sub-range; for a freeze, the held frame's range).
struct RenderSegment: Hashable, Sendable {
    var source: AssetTrack?
    var mapping: TimeMapping
    /// The segment's time effect, nil for a plain linear segment.
    var effect: SegmentTimeEffect? = nil
    /// The whole segment's mapping with its target on the export's clock; used only with `effect`.
    var effectMapping: TimeMapping? = nil

    /// The source time shown at composition time `time` (which must lie in the target range):
    /// `CMTimeMapTimeFromRangeToRange`, exact, or the effect's own map (``TimeMapping/sourceTime(at:effect:)``).
    func sourceTime(at time: MediaTime) -> MediaTime {
        guard let effect else { return TimeRange.mapTime(time, from: mapping.target, to: mapping.source) }
        return (effectMapping ?? mapping).sourceTime(at: time, effect: effect)
    }
}

/// A composition track as the renderer sees it.
struct RenderTrack: Hashable, Sendable {
    var trackID: Int32
    var segments: [RenderSegment]

    /// The segment whose target range contains `time`, searched from `hint` forward (times are visited in order).
    func segmentIndex(containing time: MediaTime, from hint: Int) -> Int? {
        var index = max(0, min(hint, segments.count))
        if index < segments.count, segments[index].mapping.target.start > time { index = 0 }
        while index < segments.count {
            if segments[index].mapping.target.contains(time) { return index }
            if segments[index].mapping.target.start > time { return nil }
            index += 1
        }
        return nil
    }
}
