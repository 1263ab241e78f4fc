import Composition

/// One segment of a composition track as the renderer sees it: the source track (nil for an empty segment) and the
/// exact mapping of its source range onto composition time.
struct RenderSegment: Hashable, Sendable {
    var source: AssetTrack?
    var mapping: TimeMapping

    /// The source time shown at composition time `time` (which must lie in the target range):
    /// `CMTimeMapTimeFromRangeToRange`, exact.
    func sourceTime(at time: MediaTime) -> MediaTime {
        TimeRange.mapTime(time, from: mapping.target, to: mapping.source)
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
