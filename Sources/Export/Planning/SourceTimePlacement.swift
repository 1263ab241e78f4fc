import Composition

/// Places events timed in source time — subtitle cues, chapters, timed metadata groups — on an export's timeline
/// through a track's segments, the one rule every writer of timed text uses.
///
/// A segment shows the events of its source range, clipped to that range (an event crossing a cut ends or starts at
/// the cut) and moved with the segment's exact mapping (``Composition/TimeRange/mapTime(_:from:to:)``: a scaled
/// segment scales its events). The pieces of one source event that meet again on the timeline (a range inserted in
/// two parts) are joined. Segments with a time effect (reverse, freeze frame, speed ramp) and empty segments show
/// none. Overlapping events are kept. Times are in milliseconds (the resolution of every text subtitle format, the
/// MP4 chapter list and Matroska's chapters), rounded half away from zero; an event shorter than a millisecond after
/// rounding is left out.
enum SourceTimePlacement {
    /// One placed event: milliseconds on the export's timeline.
    struct Placed<Item> {
        var start: Int64
        var end: Int64
        var item: Item
    }

    /// Places the events of each segment's source.
    /// - Parameters:
    ///   - segments: a track's segments on the export's clock (``RenderTrack``).
    ///   - events: the events of a segment's source in its source time, in a fixed order (the same source gives the
    ///     same list: an event's index identifies it when its pieces are joined); called once per segment.
    /// - Returns: the placed events ordered by start (events starting together keep their placement order).
    /// - Throws: what `events` throws.
    static func place<Item>(
        _ segments: [RenderSegment], events: (AssetTrack) throws -> [(timeRange: TimeRange, item: Item)]
    ) rethrows -> [Placed<Item>] {
        var placed: [(event: Placed<Item>, origin: String, index: Int)] = []
        for segment in segments where segment.effect == nil {
            guard let source = segment.source else { continue }
            let origin = "\(source.assetURL.path)#\(source.streamIndex)"
            for (index, event) in try events(source).enumerated() {
                let clipped = event.timeRange.intersection(segment.mapping.source)
                guard clipped.isValid, clipped.duration > .zero else { continue }
                let start = milliseconds(TimeRange.mapTime(clipped.start, from: segment.mapping.source, to: segment.mapping.target))
                let end = milliseconds(TimeRange.mapTime(clipped.end, from: segment.mapping.source, to: segment.mapping.target))
                if let last = placed.last, last.origin == origin, last.index == index, last.event.end == start {
                    placed[placed.count - 1].event.end = end  // the same event continuing across a seam
                } else if end > start {
                    placed.append((Placed(start: start, end: end, item: event.item), origin, index))
                }
            }
        }
        return placed.map(\.event).enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// Places timed metadata groups (chapters, timed metadata) by ``place(_:events:)`` and gives them back as groups
    /// over their placed ranges (milliseconds on the export's timeline).
    /// - Parameter groups: the groups of a segment's source in its source time, in a fixed order.
    /// - Throws: what `groups` throws.
    static func placeGroups(
        _ segments: [RenderSegment], groups: (AssetTrack) throws -> [TimedMetadataGroup]
    ) rethrows -> [TimedMetadataGroup] {
        try place(segments) { try groups($0).map { ($0.timeRange, $0.items) } }.map {
            TimedMetadataGroup(
                timeRange: TimeRange(start: MediaTime(value: $0.start, timescale: 1000), end: MediaTime(value: $0.end, timescale: 1000)),
                items: $0.item)
        }
    }

    /// `time` in whole milliseconds, rounded half away from zero.
    static func milliseconds(_ time: MediaTime) -> Int64 {
        time.convertScale(1000).value
    }
}
