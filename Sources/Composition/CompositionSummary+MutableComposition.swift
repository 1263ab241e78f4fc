extension CompositionSummary {
    /// The facts of `composition` that video-composition and audio-mix validation and defaults need.
    ///
    /// Per track: its segments' target ranges, whether each is empty, and — for video — the first non-empty
    /// segment's source picture (natural size, pixel aspect ratio), the track's preferred transform, the shortest
    /// source frame duration and the highest nominal frame rate among its sources.
    /// These are facts; `MutableVideoComposition(propertiesOf: MutableComposition)` decides the render frame duration
    /// from them (variable-frame-rate sources ask for ``variableFrameRateFrameDuration``).
    public init(_ composition: MutableComposition) {
        let tracks = composition.tracks.map { track -> Track in
            let sources = track.segments.compactMap(\.sourceTrack)
            let videoFormats = sources.compactMap(\.video)
            return Track(
                trackID: track.trackID, mediaType: track.mediaType, timeRange: track.timeRange,
                segments: track.segments.map { Segment(target: $0.timeMapping.target, isEmpty: $0.isEmpty) },
                isEnabled: track.isEnabled,
                naturalSize: track.naturalSize == .zero ? (videoFormats.first?.naturalSize ?? .zero) : track.naturalSize,
                pixelAspectRatio: videoFormats.first?.pixelAspectRatio ?? .square,
                preferredTransform: track.preferredTransform,
                minFrameDuration: videoFormats.filter { !$0.isStillImage }.map(\.minFrameDuration)
                    .filter { $0.isNumeric && $0 > .zero }.min(),
                nominalFrameRate: videoFormats.map(\.nominalFrameRate).max())
        }
        self.init(duration: composition.duration, naturalSize: composition.naturalSize, tracks: tracks)
    }

    /// The frame duration a variable-frame-rate source asks for: 1/30 s, the rate phones aim at.
    public static let variableFrameRateFrameDuration = MediaTime(value: 1, timescale: 30)
}
