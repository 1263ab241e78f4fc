import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Every real clip of `../shared/media` (facts in its README; the loader's facts are pinned by
/// AssetLoadingMediaTests) composed and exported, alone and cut together: exact durations of video and audio,
/// orientation checked with pixels against the coded picture turned by hand, audio sync by cross-correlation with
/// the clip's own decoded sound, silence where a clip's audio ends early, and a marker clip after all of them still
/// in sync. Skipped loudly when the folder is absent.
@Suite("Real footage: shared/media clips export correctly", .enabled(if: Fixture.sharedMediaIsAvailable))
struct RealFootageTests {
    /// What a clip must look like once exported.
    struct Clip: Sendable, CustomTestStringConvertible {
        var file: String
        /// Clockwise quarter turns from the coded picture to the upright one (display matrix −90 → 1, 180 → 2).
        var quarterTurns: Int
        /// The upright picture in pixels.
        var upright: Size
        /// The export's size within a 640 × 640 box.
        var exported: Size
        var testDescription: String { String(file.prefix(3)) }
    }

    static let clips: [Clip] = [
        Clip(file: "M01_iphone4s_rot-90_ts600_aac-mono44k.mov", quarterTurns: 1,
             upright: Size(width: 320, height: 568), exported: Size(width: 320, height: 568)),
        Clip(file: "M02_android_1080p_rot-90_0.2s_vfr.mp4", quarterTurns: 1,
             upright: Size(width: 1080, height: 1920), exported: Size(width: 360, height: 640)),
        Clip(file: "M03_android_720p_rot180_vfr_aac-mono48k.mp4", quarterTurns: 2,
             upright: Size(width: 1280, height: 720), exported: Size(width: 640, height: 360)),
        Clip(file: "M04_iphone6s_livephoto_1440x1080_vfr_pcm-mono44k.mov", quarterTurns: 0,
             upright: Size(width: 1440, height: 1080), exported: Size(width: 640, height: 480)),
        Clip(file: "M05_iphone13pro_livephoto_480x640_dropped-frame_audio-first.mov", quarterTurns: 0,
             upright: Size(width: 480, height: 640), exported: Size(width: 480, height: 640)),
        Clip(file: "M08_h264_1280x720_29.97_nonzero-start.mp4", quarterTurns: 0,
             upright: Size(width: 1280, height: 720), exported: Size(width: 640, height: 360)),
        Clip(file: "M09_h264_1080p30_audio-longer-than-video.mp4", quarterTurns: 0,
             upright: Size(width: 1920, height: 1080), exported: Size(width: 640, height: 360)),
        Clip(file: "M14_jpeg_exif-orientation6_1512x2016.jpg", quarterTurns: 1,
             upright: Size(width: 2016, height: 1512), exported: Size(width: 640, height: 480)),
    ]

    static let settings = MeasuredExport.settings(crf: 23, maximumSize: Size(width: 640, height: 640))

    /// Peak of "silence" (−80 dBFS): the engine writes zeros and AAC keeps them near zero, while the quietest real
    /// clips (M01 −57.7 dB, M09 −56.1 dB mean) stay well above it.
    static let silence: Float = 1e-4

    /// Every file of the folder has facts here (a new clip must be added, not silently skipped).
    @Test func everyClipIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixture.sharedMediaFolder.path).filter { $0 != "README.md" }
        #expect(Set(files) == Set(Self.clips.map(\.file)))
    }

    /// The coded picture of `track` at source time `time` (no orientation applied), at most 320 × 320: a video
    /// composition of the coded size with an identity layer.
    static func codedPicture(of track: AssetTrack, at time: MediaTime) async throws -> VideoFrame {
        var composition = MutableComposition()
        let range = track.timeRange.duration.isNumeric ? track.timeRange : TimeRange(start: .zero, duration: MediaTime(seconds: 60))
        let id = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(range, of: track, at: .zero, intoTrackWithID: id)
        let size = try #require(track.naturalSize)
        var layer = VideoCompositionLayerInstruction(trackID: id)
        layer.setTransform(.identity, at: .zero)
        var generator = AssetImageGenerator(asset: composition)
        generator.videoComposition = MutableVideoComposition(
            renderSize: Size(width: size.width + size.width % 2, height: size.height + size.height % 2),
            frameDuration: MediaTime(value: 1, timescale: 30),
            instructions: [VideoCompositionInstruction(timeRange: range, layerInstructions: [layer])])
        generator.maximumSize = Size(width: 320, height: 320)
        generator.requestedTimeToleranceBefore = .zero
        return try await generator.image(at: time).image
    }

    /// Checks that `rect` of `frame` shows `reference` turned by `quarterTurns` clockwise: that orientation differs
    /// from it by at most `limit` (mean over 8 × 8 block means and R, G, B, 0…255; measured 0.1 … 1.5 on these
    /// clips) and every other quarter turn by at least 10 more (measured ≥ 19).
    static func expectOrientation(_ frame: VideoFrame, in rect: Rect, shows reference: VideoFrame, quarterTurns: Int,
                                  limit: Double = 5, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let scores = frame.blockDifferences(in: rect, from: reference, quarterTurns: [0, 1, 2, 3])
        let right = scores[quarterTurns]
        let others = scores.indices.filter { $0 != quarterTurns }.map { scores[$0] }
        #expect(right <= limit && others.allSatisfy { $0 >= right + 10 },
                "\(label): block difference per quarter turn \(scores.map { ($0 * 10).rounded() / 10 }), expected the least at \(quarterTurns)",
                sourceLocation: sourceLocation)
    }

    /// Finds source samples `[sourceStart, sourceEnd)` (48 kHz, one channel) inside the export by cross-correlation
    /// (a window from a quarter of the way in, searched ±10 ms): they must start at export sample `start`, to 2
    /// samples, with correlation above 0.9 (AAC both ways).
    static func expectAudio(_ exported: [Float], matches source: [Float], from sourceStart: Int = 0, to sourceEnd: Int? = nil,
                            at start: Int, label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let end = min(sourceEnd ?? source.count, source.count)
        let count = end - sourceStart
        if Measure.peak(source, start: sourceStart, count: count) == 0 {
            // M02's 0.149 s of AAC decodes to digital silence (ffmpeg volumedetect: -91 dB): nothing to correlate.
            #expect(Measure.peak(exported, start: start, count: count) < silence, "\(label): silent source, silent export",
                    sourceLocation: sourceLocation)
            return
        }
        let window = min(4800, count / 3)
        let offset = sourceStart + min(count / 4, 24_000)
        let found = Measure.lag(of: source, in: exported, expected: start - sourceStart, search: 480, window: window,
                                referenceStart: offset)
        #expect(abs(found.lag - (start - sourceStart)) <= 2 && found.correlation > 0.9,
                "\(label): source audio found at sample \(found.lag + sourceStart) (correlation \(found.correlation)), expected \(start)",
                sourceLocation: sourceLocation)
    }

    @Test(arguments: clips)
    func exportsAloneUprightWithExactDurationsAndSync(clip: Clip) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = Fixture.sharedMedia(clip.file)
        let asset = try await Asset.load(from: url)
        let videoSource = try #require(asset.tracks(withMediaType: .video).first)
        let audioSource = asset.tracks(withMediaType: .audio).first
        let duration = asset.duration.isNumeric ? asset.duration : MediaTime(seconds: 2)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: duration), of: asset, at: .zero)
        let video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.renderSize == clip.upright)
        // Constant-rate sources keep their rate (M08: 30000/1001); variable-rate ones and stills ask for 30 fps.
        let frameDuration = clip.file.hasPrefix("M08") ? MediaTime(value: 1001, timescale: 30_000) : MediaTime(value: 1, timescale: 30)
        #expect(video.frameDuration == frameDuration)

        let output = scratch.file("alone.mp4")
        let result = try await MeasuredExport.export(composition, to: output, settings: Self.settings)
        let outVideo = try #require(result.tracks(withMediaType: .video).first)
        #expect(outVideo.naturalSize == clip.exported)
        #expect(outVideo.preferredTransform == .identity, "no stray rotation in the output")
        #expect(outVideo.timeRange.duration == duration)
        #expect(outVideo.video?.frameCount == MeasuredExport.frameCount(duration, frameDuration))

        // Orientation: the first frame (source time 0 — after M08's start offset, M05's and M09's edit lists) and
        // one in the middle show the coded picture turned upright.
        let middle = frameDuration * Int64(MeasuredExport.frameIndex(videoSource.timeRange.duration.isNumeric
            ? videoSource.timeRange.duration : duration, frameDuration) / 2)
        let frames = try await Readback.frames(of: output, at: [.zero, middle])
        let whole = Rect(x: 0, y: 0, width: Double(clip.exported.width), height: Double(clip.exported.height))
        for (frame, time) in zip(frames, [MediaTime.zero, middle]) {
            #expect(Measure.meanLevel(frame) > 20, "\(clip.file) at \(time): not black")
            let reference = try await Self.codedPicture(of: videoSource, at: time)
            Self.expectOrientation(frame, in: whole, shows: reference, quarterTurns: clip.quarterTurns, "\(clip.file) at \(time)")
        }

        guard let audioSource else {
            #expect(result.tracks(withMediaType: .audio).isEmpty)
            return
        }
        let outAudio = try #require(result.tracks(withMediaType: .audio).first)
        #expect(outAudio.timeRange.duration == MediaTime(value: duration.convertScale(48_000).value, timescale: 48_000))
        let exported = try await Readback.audio(of: output)
        let source = try await Readback.audio(of: url)
        Self.expectAudio(exported[0], matches: source[0], at: 0, label: clip.file)
        // Level kept (AAC within 0.5 dB); a mono source (M01, M03, M04's PCM with no layout, M05) on both channels
        // at the same level (unity upmix).
        let count = Int(audioSource.timeRange.duration.convertScale(48_000).value)
        if Measure.peak(source[0], start: 0, count: count) > 0 {
            for channel in 0..<2 {
                let sourceLevel = Readback.rmsDecibels(source[audioSource.audio?.channelCount == 1 ? 0 : channel], start: 0, count: count)
                let level = Readback.rmsDecibels(exported[channel], start: 0, count: count)
                #expect(abs(level - sourceLevel) < 0.5, "\(clip.file) channel \(channel): \(level) dBFS, source \(sourceLevel) dBFS")
            }
        }
        // Audio shorter than the video: silence after it (past the AAC coder's ringing), never anything shifted in.
        let audioEnd = Int(audioSource.timeRange.duration.convertScale(48_000).value)
        if audioEnd + 2048 < exported[0].count {
            #expect(Measure.peak(exported[0], start: audioEnd + 2048, count: exported[0].count) < Self.silence,
                    "\(clip.file): silence after the audio's end")
        }
    }

    /// The last second of every clip (all of M02; M14 for 1 s) on ONE video and ONE audio track — starting mid-GOP,
    /// ending where each clip's audio and video end differently — then the marker clip: durations exact, each piece
    /// upright and letterboxed in the 640 × 640 canvas, its sound at its insertion time (to 2 samples), silence where
    /// its audio ends early (M03: 119 ms), the longer audio of M08 and M09 cut at their video's end, and the final flash
    /// and beep where they belong.
    @Test func cutTogetherOnOneTrack() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var composition = MutableComposition()
        composition.naturalSize = Size(width: 640, height: 640)
        let videoID = try composition.addMutableTrack(withMediaType: .video)
        let audioID = try composition.addMutableTrack(withMediaType: .audio)
        struct Placed { var clip: Clip; var asset: Asset; var start: MediaTime; var sourceStart: MediaTime; var duration: MediaTime }
        var placed: [Placed] = []
        var cursor = MediaTime.zero
        for clip in Self.clips {
            let asset = try await Asset.load(from: Fixture.sharedMedia(clip.file))
            let video = try #require(asset.tracks(withMediaType: .video).first)
            let end = video.timeRange.duration.isNumeric ? video.timeRange.duration : MediaTime(seconds: 1)
            let sourceStart = max(.zero, end - MediaTime(seconds: 1))
            let piece = TimeRange(start: sourceStart, end: end)
            try composition.insertTimeRange(piece, of: video, at: cursor, intoTrackWithID: videoID)
            // The audio for at most the video's range; a shorter one (or none) leaves a gap the next insert fills with
            // an empty segment.
            if let audio = asset.tracks(withMediaType: .audio).first {
                let range = audio.timeRange.intersection(piece)
                try composition.insertTimeRange(range, of: audio, at: cursor + (range.start - sourceStart), intoTrackWithID: audioID)
            }
            placed.append(Placed(clip: clip, asset: asset, start: cursor, sourceStart: sourceStart, duration: piece.duration))
            cursor = cursor + piece.duration
        }
        let markers = try await Fixture.asset("markers/flash-beep.mp4")
        let markerStart = cursor
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 3)), of: markers, at: markerStart)
        let total = markerStart + MediaTime(seconds: 3)
        #expect(composition.duration == total)

        let video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.renderSize == Size(width: 640, height: 640))
        let frameDuration = MediaTime(value: 1, timescale: 30)
        #expect(video.frameDuration == frameDuration)
        let output = scratch.file("together.mp4")
        let result = try await MeasuredExport.export(composition, to: output, videoComposition: video, settings: Self.settings)
        let outVideo = try #require(result.tracks(withMediaType: .video).first)
        let outAudio = try #require(result.tracks(withMediaType: .audio).first)
        #expect(outVideo.naturalSize == Size(width: 640, height: 640))
        #expect(outVideo.preferredTransform == .identity)
        #expect(outVideo.timeRange.duration == total)
        #expect(outVideo.video?.frameCount == MeasuredExport.frameCount(total, frameDuration))
        #expect(outAudio.timeRange.duration == MediaTime(value: total.convertScale(48_000).value, timescale: 48_000))

        // Each piece: its first frame and one in its middle, upright and fitted (aspect kept, centred) in the canvas.
        let times = placed.flatMap { p in
            let first = MeasuredExport.frameCount(p.start, frameDuration)
            return [first, first + MeasuredExport.frameIndex(p.duration, frameDuration) / 2].map { frameDuration * Int64($0) }
        }
        let frames = try await Readback.frames(of: output, at: times)
        let exported = try await Readback.audio(of: output)
        for (index, p) in placed.enumerated() {
            let scale = min(640 / Double(p.clip.upright.width), 640 / Double(p.clip.upright.height))
            let w = Double(p.clip.upright.width) * scale, h = Double(p.clip.upright.height) * scale
            let rect = Rect(x: (640 - w) / 2 + 2, y: (640 - h) / 2 + 2, width: w - 4, height: h - 4)
            let videoTrack = try #require(p.asset.tracks(withMediaType: .video).first)
            for which in 0..<2 {
                let frame = frames[2 * index + which], time = times[2 * index + which]
                let reference = try await Self.codedPicture(of: videoTrack, at: time - p.start + p.sourceStart)
                Self.expectOrientation(frame, in: rect, shows: reference, quarterTurns: p.clip.quarterTurns,
                                       "\(p.clip.file) in the cut at \(time)")
                if w < 636 {  // letterbox bars left and right are background
                    #expect(Measure.meanLevel(frame.cropped(Rect(x: 0, y: 0, width: (640 - w) / 2 - 2, height: 640))) < 3)
                }
                if h < 636 {
                    #expect(Measure.meanLevel(frame.cropped(Rect(x: 0, y: 0, width: 640, height: (640 - h) / 2 - 2))) < 3)
                }
            }
            guard let audio = p.asset.tracks(withMediaType: .audio).first else { continue }
            let start = Int(p.start.convertScale(48_000).value)
            let sourceStart = Int(p.sourceStart.convertScale(48_000).value)
            let sourceEnd = Int(min(audio.timeRange.duration, p.sourceStart + p.duration).convertScale(48_000).value)
            let source = try await Readback.audio(of: Fixture.sharedMedia(p.clip.file))
            Self.expectAudio(exported[0], matches: source[0], from: sourceStart, to: sourceEnd, at: start, label: "\(p.clip.file) in the cut")
            // Between the end of its audio and the next clip (2048 samples of AAC ringing and pre-echo left out on
            // each side; only M03's 119 ms gap is long enough): silence.
            let audioEnd = start + sourceEnd - sourceStart
            let clipEnd = Int((p.start + p.duration).convertScale(48_000).value)
            if audioEnd + 4096 < clipEnd {
                let loud = (audioEnd + 2048..<clipEnd - 2048).filter { abs(exported[0][$0]) >= Self.silence }
                #expect(loud.isEmpty, "\(p.clip.file): sound at \(loud.prefix(3)) where its audio ran out (\(audioEnd)..<\(clipEnd))")
            }
        }
        // M08's and M09's audio run 3.9 ms and 75 ms past their video: cut there. M14 (no sound) follows M09, so its
        // second after the cut must be silent; M08's excess would have shifted M09's sound (checked above).
        let m09 = try #require(placed.first { $0.clip.file.hasPrefix("M09") })
        let m09End = Int((m09.start + m09.duration).convertScale(48_000).value)
        #expect(Measure.peak(exported[0], start: m09End + 2048, count: 24_000) < Self.silence, "M09's extra audio is cut")

        // The marker clip after everything: flash at markerStart + 1 s on the first frame at or after it, beep there.
        let flash = markerStart + MediaTime(seconds: 1)
        let flashFrame = MeasuredExport.frameCount(flash, frameDuration)
        let around = try await Readback.frames(of: output, at: ((flashFrame - 2)...(flashFrame + 2)).map { frameDuration * Int64($0) })
        // flash-beep (320 × 240) is fitted to 640 × 480 at rows 80 ..< 560: its centre is white on one frame only.
        let white = around.indices.filter { Measure.meanLevel(around[$0].cropped(Rect(x: 240, y: 260, width: 160, height: 120))) > 200 }
        #expect(white == [2], "the flash on frame \(flashFrame) only")
        let beep = Int(flash.convertScale(48_000).value)
        let onset = try #require(Measure.onset(exported[0], threshold: 0.05, from: Int(markerStart.convertScale(48_000).value) + 2400))
        #expect(abs(onset - (beep + 1)) <= 3, "beep onset \(onset), expected \(beep + 1)")
    }

    /// M08 (non-zero start times), M05 (audio edit list skipping 2112 priming samples, audio track first) and M09
    /// (edit lists media_time 1024 on both tracks), each inserted whole at a time T on the 1/30 s grid after half a
    /// second of nothing: the frame before T is background, the frame at T is the clip's first presented picture
    /// (not black, not the key frame before it), the sound starts at T to 2 samples and the gap before it is silent.
    @Test func firstPictureAndSoundAtTheInsertionTime() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let files = Self.clips.map(\.file).filter { $0.hasPrefix("M08") || $0.hasPrefix("M05") || $0.hasPrefix("M09") }
        let frameDuration = MediaTime(value: 1, timescale: 30)
        var composition = MutableComposition()
        composition.naturalSize = Size(width: 640, height: 640)
        let videoID = try composition.addMutableTrack(withMediaType: .video)
        let audioID = try composition.addMutableTrack(withMediaType: .audio)
        var placed: [(file: String, asset: Asset, at: MediaTime)] = []
        var end = MediaTime.zero
        for file in files {
            let asset = try await Asset.load(from: Fixture.sharedMedia(file))
            let at = frameDuration * Int64(MeasuredExport.frameCount(end, frameDuration) + 15)
            let video = try #require(asset.tracks(withMediaType: .video).first)
            let audio = try #require(asset.tracks(withMediaType: .audio).first)
            try composition.insertTimeRange(video.timeRange, of: video, at: at, intoTrackWithID: videoID)
            try composition.insertTimeRange(audio.timeRange, of: audio, at: at, intoTrackWithID: audioID)
            placed.append((file, asset, at))
            end = composition.duration
        }
        let video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.frameDuration == frameDuration)
        let output = scratch.file("insertion.mp4")
        try await MeasuredExport.export(composition, to: output, videoComposition: video, settings: Self.settings)
        let times = placed.flatMap { [$0.at - frameDuration, $0.at] }
        let frames = try await Readback.frames(of: output, at: times)
        let exported = try await Readback.audio(of: output)
        for (index, clip) in placed.enumerated() {
            let upright = try #require(Self.clips.first { $0.file == clip.file }).upright
            let scale = min(640 / Double(upright.width), 640 / Double(upright.height))
            let w = Double(upright.width) * scale, h = Double(upright.height) * scale
            let rect = Rect(x: (640 - w) / 2 + 2, y: (640 - h) / 2 + 2, width: w - 4, height: h - 4)
            #expect(Measure.meanLevel(frames[2 * index]) < 3, "\(clip.file): background just before \(clip.at)")
            let first = frames[2 * index + 1]
            #expect(Measure.meanLevel(first.cropped(rect)) > 20, "\(clip.file): its first picture at \(clip.at), not black")
            let videoTrack = try #require(clip.asset.tracks(withMediaType: .video).first)
            let reference = try await Self.codedPicture(of: videoTrack, at: .zero)
            Self.expectOrientation(first, in: rect, shows: reference, quarterTurns: 0, "\(clip.file) first picture")
            let start = Int(clip.at.convertScale(48_000).value)
            let source = try await Readback.audio(of: Fixture.sharedMedia(clip.file))
            Self.expectAudio(exported[0], matches: source[0], at: start, label: "\(clip.file) inserted at \(clip.at)")
            // The half second before: silent (2048 samples of AAC ringing after the previous clip and of pre-echo
            // before this one left out).
            #expect(Measure.peak(exported[0], start: start - 24_000 + 2048, count: 24_000 - 4096) < Self.silence,
                    "\(clip.file): silence before \(clip.at)")
            // The first 20 ms of sound are there (not delayed by priming): the export's level over them matches the
            // source's within 3 dB.
            let level = Readback.rmsDecibels(exported[0], start: start, count: 960)
            let sourceLevel = Readback.rmsDecibels(source[0], start: 0, count: 960)
            #expect(abs(level - sourceLevel) < 3, "\(clip.file): first 20 ms at \(level) dBFS, source \(sourceLevel) dBFS")
        }
    }
}
