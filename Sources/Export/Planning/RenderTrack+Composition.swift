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
            if let source = segment.sourceTrack, !segment.isEmpty, let effect = segment.timeEffect {
                segments.append(Self.effectSegment(source: source, segment.timeMapping, effect, clipped: clipped, range: range))
            } else if let source = segment.sourceTrack, !segment.isEmpty {
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

    /// A segment with a time effect, clipped to `clipped` (composition time) and moved onto the export's clock
    /// (`range.start` → 0). The clipped part's source range is where that part reads: the mirror for a reverse, the
    /// held frame's range for a freeze, the ramp's integral between the clip's ends for a ramp.
    private static func effectSegment(
        source: AssetTrack, _ mapping: TimeMapping, _ effect: SegmentTimeEffect, clipped: TimeRange, range: TimeRange
    ) -> RenderSegment {
        let shiftedTarget = TimeRange(start: mapping.target.start - range.start, duration: mapping.target.duration)
        let whole = TimeMapping(source: mapping.source, target: shiftedTarget)
        let target = TimeRange(start: clipped.start - range.start, duration: clipped.duration)
        let sourceRange: TimeRange
        switch effect {
        case .freezeFrame:
            sourceRange = mapping.source
        case .reverse:
            // Read backwards: the part's end maps to the lower source bound (approached from above).
            let low = whole.sourceTime(at: target.end, effect: effect)
            let high = whole.sourceTime(at: target.start, effect: effect)
            sourceRange = TimeRange(start: low, end: high)
        case .speedRamp:
            let low = whole.sourceTime(at: target.start, effect: effect)
            let high = target.end == shiftedTarget.end ? mapping.source.end : whole.sourceTime(at: target.end, effect: effect)
            sourceRange = TimeRange(start: low, end: high)
        }
        return RenderSegment(
            source: source, mapping: TimeMapping(source: sourceRange, target: target), effect: effect, effectMapping: whole)
    }
}
