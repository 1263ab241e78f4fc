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
        // Far from the hint (or before it), start from the last segment starting at or before `time`, found by
        // bisection (segments are in time order): O(log n) instead of a walk from the hint or the first segment.
        if index + 2 < segments.count, segments[index + 2].mapping.target.start <= time {
            var low = index + 2, high = segments.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if segments[middle].mapping.target.start <= time { low = middle } else { high = middle - 1 }
            }
            // Empty segments share their start with the next one: step back over them.
            while low > index, segments[low - 1].mapping.target.start == segments[low].mapping.target.start { low -= 1 }
            index = low
        }
        while index < segments.count {
            if segments[index].mapping.target.contains(time) { return index }
            if segments[index].mapping.target.start > time { return nil }
            index += 1
        }
        return nil
    }
}
