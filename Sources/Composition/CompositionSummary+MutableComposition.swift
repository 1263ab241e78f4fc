extension CompositionSummary {
    /// The facts of `composition` that video-composition and audio-mix validation and defaults need.
    ///
    /// Per track: its segments' target ranges, whether each is empty, and — for video — the first non-empty
    /// segment's source picture (natural size, pixel aspect ratio), the track's preferred transform, the shortest
    /// source frame duration and the highest nominal frame rate among its sources.
    ///
    /// A variable-frame-rate source (phone footage in low light, Live Photo movies) counts with a frame duration of
    /// ``variableFrameRateFrameDuration`` (1/30 s) rather than its shortest interval, which is an accident of
    /// timing (e.g. 5106/90000 s in a 0.2 s Android clip) and would give an odd output rate.
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
                minFrameDuration: videoFormats.filter { !$0.isStillImage }.map(Self.renderFrameDuration)
                    .filter { $0.isNumeric && $0 > .zero }.min(),
                nominalFrameRate: videoFormats.map(\.nominalFrameRate).max())
        }
        self.init(duration: composition.duration, naturalSize: composition.naturalSize, tracks: tracks)
    }

    /// The frame duration a variable-frame-rate source asks for: 1/30 s, the rate phones aim at.
    public static let variableFrameRateFrameDuration = MediaTime(value: 1, timescale: 30)

    /// The standard frame durations (24000/1001 … 60 fps) a constant-rate source is snapped to.
    public static let standardFrameDurations: [MediaTime] = [
        MediaTime(value: 1001, timescale: 24000), MediaTime(value: 1, timescale: 24), MediaTime(value: 1, timescale: 25),
        MediaTime(value: 1001, timescale: 30000), MediaTime(value: 1, timescale: 30), MediaTime(value: 1, timescale: 50),
        MediaTime(value: 1001, timescale: 60000), MediaTime(value: 1, timescale: 60),
    ]

    /// The frame duration a video source asks the render for:
    /// 1. variable frame rate: ``variableFrameRateFrameDuration``;
    /// 2. a shortest interval that is exactly a standard duration (e.g. 20/600 = 1/30): that interval;
    /// 3. a nominal rate within 0.05 % of a standard rate (the closest one): the standard duration — a 30 fps clip in a file with a
    ///    millisecond clock has intervals of 33 and 34 ms, and renders at exactly 1/30 s, not 33/1000 s;
    /// 4. otherwise the shortest interval, exact.
    public static func renderFrameDuration(_ video: VideoTrackFormat) -> MediaTime {
        if video.hasVariableFrameRate { return variableFrameRateFrameDuration }
        if standardFrameDurations.contains(video.minFrameDuration) { return video.minFrameDuration }
        if video.nominalFrameRate > 0 {
            let duration = 1 / video.nominalFrameRate
            let error = { (standard: MediaTime) in abs(duration - standard.seconds) / standard.seconds }
            // 0.05 %: half the gap between 30 and 30000/1001 fps, so the two are never confused.
            if let closest = standardFrameDurations.min(by: { error($0) < error($1) }), error(closest) < 0.0005 {
                return closest
            }
        }
        return video.minFrameDuration
    }
}
