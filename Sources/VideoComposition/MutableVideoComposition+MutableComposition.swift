import Composition

extension MutableVideoComposition {
    /// A valid default video composition for `composition`, as AVFoundation's
    /// `AVMutableVideoComposition(propertiesOf:)`, with every source shown upright and aspect-fitted — also when
    /// one track cuts between sources of different sizes or orientations (a portrait phone clip after a landscape
    /// one is letterboxed, never stretched).
    ///
    /// Rules are those of ``init(propertiesOf:)-(CompositionSummary)``, with refinements that need the segments'
    /// sources: the render size (when the composition's `naturalSize` is zero) holds the display picture of every
    /// source, not only each track's first; each layer's transform is set again at the start of every segment whose
    /// source differs, to that source's own preferred transform followed by the aspect fit (an odd-sized picture on
    /// the canvas rounded up to even is padded, not scaled: ``placement(of:in:)``); and a source whose clock
    /// is too coarse to state its frame rate (Matroska and WebM count in whole milliseconds, so 30 fps frames last
    /// 33 or 34 ms) asks for the standard rate its frames really have (``standardFrameDuration(of:)``), not for its
    /// shortest rounded interval (33 ms would give 30.3 fps).
    public init(propertiesOf composition: MutableComposition) {
        var summary = CompositionSummary(composition)
        let videoTracks = composition.tracks(withMediaType: .video).filter(\.isEnabled)
        if composition.naturalSize.width <= 0 || composition.naturalSize.height <= 0 {
            let displays = videoTracks.flatMap { $0.segments.compactMap { $0.sourceTrack?.video?.displaySize } }
            if let width = displays.map(\.width).max(), let height = displays.map(\.height).max() {
                summary.naturalSize = Size(width: width, height: height)
            }
        }
        self.init(propertiesOf: summary)
        let asked = videoTracks.flatMap { $0.segments.compactMap(\.sourceTrack) }
            .filter { $0.video.map { !$0.isStillImage } ?? false }
            .map { $0.video?.hasVariableFrameRate == true
                ? CompositionSummary.variableFrameRateFrameDuration : Self.standardFrameDuration(of: $0) }
            .filter { $0.isNumeric && $0 > .zero }
        if let shortest = asked.min() { frameDuration = shortest }
        let canvas = renderSize
        // A track's segments are in time order without overlap: an instruction needs only those from the last one
        // starting at or before it, found by bisection, so a long timeline costs O(n log n), not instructions ×
        // segments.
        var tracks: [Int32: (segments: [CompositionTrackSegment], starts: [MediaTime])] = [:]
        for track in videoTracks {
            tracks[track.trackID] = (track.segments, track.segments.map(\.timeMapping.target.start))
        }
        for (index, instruction) in instructions.enumerated() {
            for (layerIndex, layer) in instruction.layerInstructions.enumerated() {
                guard let track = tracks[layer.trackID] ?? composition.track(withTrackID: layer.trackID).map({
                    ($0.segments, $0.segments.map(\.timeMapping.target.start))
                }) else { continue }
                var updated = layer
                let first = Self.lastIndex(in: track.starts, atOrBefore: instruction.timeRange.start)
                for segment in track.segments[first...] {
                    if segment.timeMapping.target.start >= instruction.timeRange.end { break }
                    guard let video = segment.sourceTrack?.video else { continue }
                    let start = segment.timeMapping.target.start
                    let inInstruction = instruction.timeRange.contains(start)
                        || (segment.timeMapping.target.contains(instruction.timeRange.start))
                    guard inInstruction else { continue }
                    updated.setTransform(Self.placement(of: video, in: canvas), at: Swift.max(start, instruction.timeRange.start))
                }
                instructions[index].layerInstructions[layerIndex] = updated
            }
        }
    }

    /// The index of the last of `starts` (in increasing order, equal ones together) at or before `time`, the first
    /// of those equal to it; 0 when every start is later.
    static func lastIndex(in starts: [MediaTime], atOrBefore time: MediaTime) -> Int {
        var low = 0, high = starts.count  // becomes the first start after `time`
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= time { low = middle + 1 } else { high = middle }
        }
        var index = max(0, low - 1)
        while index > 0, starts[index - 1] == starts[index] { index -= 1 }
        return index
    }

    /// The layer transform showing `video` upright and aspect-fitted in `canvas`
    /// (``AffineTransform2D/placing(naturalSize:preferredTransform:pixelAspectRatio:in:mode:)``), except that a picture
    /// at most one pixel smaller than the canvas in each direction — an odd size on the canvas rounded up to even,
    /// such as 321 × 241 on 322 × 242 — is placed at scale 1 at the top-left, so its pixels pass unchanged and the
    /// spare column and row on the right and bottom show the background (fitting would resample every pixel by 0.3 %).
    static func placement(of video: VideoTrackFormat, in canvas: Size) -> AffineTransform2D {
        let display = video.displaySize
        let slack = (canvas.width - display.width, canvas.height - display.height)
        let fitIn = (0...1).contains(slack.0) && (0...1).contains(slack.1) ? display : canvas
        return AffineTransform2D.placing(
            naturalSize: video.naturalSize, preferredTransform: video.preferredTransform,
            pixelAspectRatio: video.pixelAspectRatio, in: fitIn, mode: .fit) ?? video.preferredTransform
    }

    /// Frame rates cameras and encoders use, as frame durations: 24000/1001, 24, 25, 30000/1001, 30, 48, 50,
    /// 60000/1001, 60, 100, 120 fps.
    static let standardFrameDurations: [MediaTime] = [
        MediaTime(value: 1001, timescale: 24_000), MediaTime(value: 1, timescale: 24), MediaTime(value: 1, timescale: 25),
        MediaTime(value: 1001, timescale: 30_000), MediaTime(value: 1, timescale: 30), MediaTime(value: 1, timescale: 48),
        MediaTime(value: 1, timescale: 50), MediaTime(value: 1001, timescale: 60_000), MediaTime(value: 1, timescale: 60),
        MediaTime(value: 1, timescale: 100), MediaTime(value: 1, timescale: 120),
    ]

    /// The frame duration a constant-rate `track` asks for: its `minFrameDuration`, unless that is a standard
    /// duration rounded down to the track's clock. Then it is the standard duration `d` with
    /// `minFrameDuration ≤ d < minFrameDuration + 1 tick` closest to the track's average rate (within 1 %): 33 ms in
    /// a 1/1000 clock at 30.00 fps average gives 1/30 s, at 29.97 fps 1001/30000 s. Exact durations (512/15360,
    /// 20/600, 1001/30000) are kept as they are.
    public static func standardFrameDuration(of track: AssetTrack) -> MediaTime {
        guard let video = track.video else { return .invalid }
        let shortest = video.minFrameDuration
        guard shortest.isNumeric, shortest > .zero, track.naturalTimeScale > 0, video.nominalFrameRate > 0 else { return shortest }
        if standardFrameDurations.contains(shortest) { return shortest }
        let tick = MediaTime(value: 1, timescale: track.naturalTimeScale)
        let rate = video.nominalFrameRate
        let candidates = standardFrameDurations.filter { $0 >= shortest && $0 < shortest + tick }
        guard let best = candidates.min(by: { abs(1 / $0.seconds - rate) < abs(1 / $1.seconds - rate) }),
              abs(1 / best.seconds - rate) <= 0.01 * rate else { return shortest }
        return best
    }

    /// Every problem of this video composition against `composition` (see
    /// ``validate(for:)-(CompositionSummary)``).
    public func validate(for composition: MutableComposition) -> [ValidationIssue] {
        validate(for: CompositionSummary(composition))
    }
}
