import Composition

extension RenderTrack {
    /// The renderer's view of `track` over the export range `range` (composition time), shifted so `range.start`
    /// becomes time 0. Segments are clipped to the range; a clipped segment's source range is cut with the exact
    /// inverse of its time mapping, so a speed-changed segment stays at its speed.
    init(_ track: CompositionTrack, exporting range: TimeRange) {
        var segments: [RenderSegment] = []
        for segment in track.segments {
            let target = segment.timeMapping.target
            let clipped = target.intersection(range)
            guard clipped.isValid, !clipped.isEmpty else { continue }
            let shifted = TimeRange(start: clipped.start - range.start, duration: clipped.duration)
            if let source = segment.sourceTrack, !segment.isEmpty {
                let mapping = segment.timeMapping
                let sourceStart = TimeRange.mapTime(clipped.start, from: mapping.target, to: mapping.source)
                let sourceEnd = TimeRange.mapTime(clipped.end, from: mapping.target, to: mapping.source)
                segments.append(RenderSegment(
                    source: source,
                    mapping: TimeMapping(source: TimeRange(start: sourceStart, end: sourceEnd), target: shifted)))
            } else {
                segments.append(RenderSegment(source: nil, mapping: TimeMapping(emptyTarget: shifted)))
            }
        }
        self.init(trackID: track.trackID, segments: segments)
    }
}
