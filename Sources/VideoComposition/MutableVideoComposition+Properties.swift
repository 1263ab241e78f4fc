import Composition

extension MutableVideoComposition {
    /// The frame duration used when no source states one: 1/30 s.
    public static let defaultFrameDuration = MediaTime(value: 1, timescale: 30)

    /// A valid video composition that shows `composition`'s video tracks upright, as AVFoundation's
    /// `AVMutableVideoComposition(propertiesOf:)` — and, beyond it, fitted so mixed portrait and landscape footage
    /// all shows upright and letterboxed.
    ///
    /// - **Render size**: the composition's `naturalSize` when set (non-zero); otherwise the smallest canvas that
    ///   holds every enabled video track's display picture (the widest display width × the tallest display height).
    ///   An odd width or height is rounded up to even (4:2:0 output). `.zero` when there is no video.
    /// - **Frame duration**: the shortest `minFrameDuration` of the enabled video tracks' sources (exact); 1/30 s when
    ///   none is known.
    /// - **Instructions**: one per span of time in which the set of enabled video tracks with media (a non-empty
    ///   segment) is constant, tiling `[0, duration)`; a span with no video has no layers (background only).
    /// - **Layers**: one per track with media in the span, in composition track order, the first track top-most;
    ///   its transform (set at the span's start) is the track's `preferredTransform` followed by an aspect fit,
    ///   centred (``AffineTransform2D/placing(_:in:mode:)``); a track with an empty picture keeps its
    ///   `preferredTransform`.
    ///
    /// - Parameter composition: the composition's facts.
    public init(propertiesOf composition: CompositionSummary) {
        let videoTracks = composition.tracks.filter { $0.mediaType == .video && $0.isEnabled }
        var size = composition.naturalSize
        if size.width <= 0 || size.height <= 0 {
            let displaySizes = videoTracks.map(\.displaySize)
            size = Size(width: displaySizes.map(\.width).max() ?? 0, height: displaySizes.map(\.height).max() ?? 0)
        }
        let renderSize = Size(width: Self.roundedUpToEven(size.width), height: Self.roundedUpToEven(size.height))
        let frameDuration = videoTracks.compactMap(\.minFrameDuration).filter { $0.isNumeric && $0 > .zero }.min()
            ?? Self.defaultFrameDuration

        let instructions = Self.spans(of: videoTracks, duration: composition.duration).map { span in
            VideoCompositionInstruction(timeRange: span.range, layerInstructions: span.tracks.map { track in
                var layer = VideoCompositionLayerInstruction(trackID: track.trackID)
                layer.setTransform(
                    AffineTransform2D.placing(track, in: renderSize, mode: .fit) ?? track.preferredTransform,
                    at: span.range.start)
                return layer
            })
        }
        self.init(renderSize: renderSize, frameDuration: frameDuration, instructions: instructions)
    }

    /// `value` if even, else `value + 1`; negative values become 0.
    private static func roundedUpToEven(_ value: Int) -> Int {
        value <= 0 ? 0 : value + value % 2
    }

    /// The maximal spans of `[0, duration)` in which the same tracks have media, in time order.
    private static func spans(
        of tracks: [CompositionSummary.Track], duration: MediaTime
    ) -> [(range: TimeRange, tracks: [CompositionSummary.Track])] {
        guard duration.isNumeric, duration > .zero else { return [] }
        var cuts: Set<MediaTime> = [.zero, duration]
        for track in tracks {
            for segment in track.segments where !segment.isEmpty && segment.target.isValid {
                for edge in [segment.target.start, segment.target.end] where edge.isNumeric && edge > .zero && edge < duration {
                    cuts.insert(edge)
                }
            }
        }
        let boundaries = cuts.sorted()
        let media = tracks.map(MediaIndex.init)
        var spans: [(range: TimeRange, tracks: [CompositionSummary.Track])] = []
        for (start, end) in zip(boundaries, boundaries.dropFirst()) {
            let active = zip(tracks, media).filter { $1.hasMedia(at: start) }.map(\.0)
            if let last = spans.last, last.tracks.map(\.trackID) == active.map(\.trackID) {
                spans[spans.count - 1].range = TimeRange(start: last.range.start, end: end)
            } else {
                spans.append((TimeRange(start: start, end: end), active))
            }
        }
        return spans
    }

    /// ``CompositionSummary/Track/hasMedia(at:)`` answered by bisection, so finding the spans of a long timeline
    /// is O(n log n) rather than boundaries × segments.
    private struct MediaIndex {
        /// The non-empty segments with numeric ends, by start; `latestEnd[i]` is the latest end among the first i + 1.
        private var starts: [MediaTime] = []
        private var latestEnd: [MediaTime] = []
        /// Non-empty segments whose ends are not numeric, asked directly.
        private var others: [TimeRange] = []

        init(_ track: CompositionSummary.Track) {
            var ranges: [TimeRange] = []
            for segment in track.segments where !segment.isEmpty {
                let target = segment.target
                if target.isValid, target.start.isNumeric, target.end.isNumeric { ranges.append(target) } else { others.append(target) }
            }
            ranges.sort { $0.start < $1.start }
            starts = ranges.map(\.start)
            var latest: MediaTime?
            latestEnd = ranges.map { range in
                let end = latest.map { Swift.max($0, range.end) } ?? range.end
                latest = end
                return end
            }
        }

        /// True when a segment contains `time` (half-open): among the segments starting at or before it, the
        /// latest end lies after it.
        func hasMedia(at time: MediaTime) -> Bool {
            var low = 0, high = starts.count  // becomes the first segment starting after `time`
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= time { low = middle + 1 } else { high = middle }
            }
            if low > 0, latestEnd[low - 1] > time { return true }
            return others.contains { $0.contains(time) }
        }
    }
}
