import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Difficult input: variable frame rate, NTSC rates and a 600 timescale, trims that start mid-GOP. Every synthetic frame writes
/// its own index (``PaintedMedia/indexed(_:background:extra:)``), so each output frame is checked against the source
/// frame it must show: the latest source frame at or before its time (sample-and-hold).
@Suite("Difficult inputs: frame timing")
struct FrameTimingTests {
    static let size = (width: 192, height: 112)

    /// Presentation times (ms) of the VFR clip's 13 frames: intervals from 10 to 133 ms, as a phone in low light.
    static let vfrTimes: [Int64] = [0, 45, 70, 150, 166, 250, 300, 383, 400, 410, 500, 633, 650]
    static let vfrEnd: Int64 = 700

    /// The VFR clip: 90 kHz clock (Android's), frame 5 (250 ms) white, with a 1 kHz beep on
    /// samples 12000 ..< 13600 of 48 kHz PCM (250 ms) marking the same instant.
    static func vfrClip(in scratch: ScratchDirectory) throws -> URL {
        let url = scratch.file("vfr.mov")
        let video = PaintedMedia.Video(
            width: size.width, height: size.height, timescale: 90_000,
            frameTimes: vfrTimes.map { $0 * 90 }, endTime: vfrEnd * 90,
            picture: { PaintedMedia.indexed($0, background: $0 == 5 ? .white : .grey) })
        let audio = PaintedMedia.Audio(sampleRate: 48_000, channels: 2, sampleCount: 33_600) { index, _ in
            (12_000..<13_600).contains(index) ? Float(0.5 * sin(2 * Double.pi * 1000 * Double(index - 12_000) / 48_000)) : 0
        }
        try PaintedMedia.write(to: url, video: video, audio: audio)
        return url
    }

    @Test(arguments: [MediaTime(value: 1, timescale: 30), MediaTime(value: 1, timescale: 25)])
    func variableFrameRateBecomesConstantRateWithSampleAndHold(frameDuration: MediaTime) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let asset = try await Asset.load(from: Self.vfrClip(in: scratch))
        let track = try #require(asset.tracks(withMediaType: .video).first)
        #expect(track.video?.hasVariableFrameRate == true)
        #expect(track.timeRange.duration == MediaTime.ms(700))
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(700)), of: asset, at: .zero)
        var video = MutableVideoComposition(propertiesOf: composition)
        // A variable-frame-rate source asks for 1/30 s frames; any other rate can be chosen.
        #expect(video.frameDuration == MediaTime(value: 1, timescale: 30))
        video.frameDuration = frameDuration

        let output = scratch.file("cfr.mp4")
        let result = try await MeasuredExport.export(composition, to: output, videoComposition: video)
        let count = MeasuredExport.frameCount(.ms(700), frameDuration)
        #expect(count == (frameDuration.timescale == 30 ? 21 : 18))
        let outVideo = try #require(result.tracks(withMediaType: .video).first)
        #expect(outVideo.video?.frameCount == count)
        #expect(outVideo.video?.hasVariableFrameRate == false)
        #expect(outVideo.video?.minFrameDuration == frameDuration)
        #expect(outVideo.timeRange.duration == MediaTime.ms(700))
        #expect(result.tracks(withMediaType: .audio).first?.timeRange.duration == MediaTime.ms(700))

        let frames = try await MeasuredExport.frames(of: output, frameDuration: frameDuration, count: count)
        for k in 0..<count {
            let time = frameDuration * Int64(k)
            let expected = Self.vfrTimes.lastIndex { MediaTime.ms($0) <= time }
            #expect(PaintedMedia.readIndex(frames[k]) == expected, "output frame \(k) at \(time)")
        }
        // A/V sync: the white frame (source 250 ms) is shown from the first output frame at or after 250 ms, and
        // the beep starts at 250 ms.
        let firstWhite = (0..<count).first { frameDuration * Int64($0) >= .ms(250) }
        let lastWhite = (0..<count).last { frameDuration * Int64($0) < .ms(300) }
        #expect(Measure.whiteFrames(frames) == Array(try #require(firstWhite)...(try #require(lastWhite))))
        let audio = try await Readback.audio(of: output)
        let onset = try #require(Measure.onset(audio[0]))
        #expect(abs(onset - 12_000) <= 3, "beep onset \(onset), expected 12000")
    }

    /// A 30000/1001 clip (clock 1/30000, 1001 per frame) and a 30 fps clip on a 600 clock (20 per frame, as iPhones
    /// write), both 60 frames with a tone, cut alternately 50 times, 7 frames each from varying offsets. The cuts are
    /// exact in composition time; rounding happens once, on the output grid: every output frame k shows the source
    /// frame sample-and-hold gives for time k·frameDuration, the frame count is ceil(total / frameDuration), and the
    /// audio is continuous across all 49 cuts and exactly as long as the composition.
    @Test(arguments: [MediaTime(value: 1001, timescale: 30_000), MediaTime(value: 1, timescale: 30)])
    func fiftyCutsOfNTSCAnd600TimescaleClipsDoNotDrift(frameDuration: MediaTime) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let tone: @Sendable (Int, Int) -> Float = { index, _ in Float(0.5 * sin(2 * Double.pi * 1000 * Double(index) / 48_000)) }
        let ntscURL = scratch.file("ntsc.mov"), ts600URL = scratch.file("ts600.mov")
        try PaintedMedia.write(to: ntscURL, video: .constantRate(
            width: Self.size.width, height: Self.size.height, timescale: 30_000, frameDuration: 1001, count: 60,
            picture: { PaintedMedia.indexed($0, background: .grey) }),
            audio: .init(sampleRate: 48_000, channels: 2, sampleCount: 96_096, sample: tone))
        try PaintedMedia.write(to: ts600URL, video: .constantRate(
            width: Self.size.width, height: Self.size.height, timescale: 600, frameDuration: 20, count: 60,
            picture: { PaintedMedia.indexed($0, background: .pureBlue) }),
            audio: .init(sampleRate: 48_000, channels: 2, sampleCount: 96_000, sample: tone),
            muxerOptions: ["video_track_timescale": "600"])
        let ntsc = try await Asset.load(from: ntscURL), ts600 = try await Asset.load(from: ts600URL)
        #expect(ntsc.tracks(withMediaType: .video)[0].naturalTimeScale == 30_000)
        #expect(ts600.tracks(withMediaType: .video)[0].naturalTimeScale == 600)

        struct Cut { var isNTSC: Bool; var firstFrame: Int; var target: TimeRange }
        var composition = MutableComposition()
        var cuts: [Cut] = []
        for c in 0..<50 {
            let isNTSC = c % 2 == 0
            let firstFrame = (c * 7) % 50
            let frame = isNTSC ? MediaTime(value: 1001, timescale: 30_000) : MediaTime(value: 20, timescale: 600)
            let source = TimeRange(start: frame * Int64(firstFrame), duration: frame * 7)
            let at = composition.duration.isNumeric ? composition.duration : .zero
            try composition.insertTimeRange(source, of: isNTSC ? ntsc : ts600, at: at)
            cuts.append(Cut(isNTSC: isNTSC, firstFrame: firstFrame, target: TimeRange(start: at, duration: source.duration)))
        }
        let total = MediaTime(value: 7007, timescale: 30_000) * 25 + MediaTime(value: 140, timescale: 600) * 25
        #expect(composition.duration == total)
        #expect(composition.tracks.count == 2, "one video and one audio track")

        var video = MutableVideoComposition(propertiesOf: composition)
        video.frameDuration = frameDuration
        let output = scratch.file("cuts.mp4")
        let result = try await MeasuredExport.export(composition, to: output, videoComposition: video,
                                                  settings: MeasuredExport.settings(crf: 30))
        let count = MeasuredExport.frameCount(total, frameDuration)
        let outVideo = try #require(result.tracks(withMediaType: .video).first)
        let outAudio = try #require(result.tracks(withMediaType: .audio).first)
        #expect(outVideo.video?.frameCount == count)
        #expect(outVideo.timeRange.duration == total)
        #expect(outAudio.timeRange.duration == MediaTime(value: total.convertScale(48_000).value, timescale: 48_000))

        let frames = try await MeasuredExport.frames(of: output, frameDuration: frameDuration, count: count)
        var mismatches: [String] = []
        for k in 0..<count {
            let time = frameDuration * Int64(k)
            guard let cut = cuts.first(where: { $0.target.contains(time) }) else { continue }
            let sourceFrameDuration = cut.isNTSC ? MediaTime(value: 1001, timescale: 30_000) : MediaTime(value: 20, timescale: 600)
            let offset = time - cut.target.start
            let expected = cut.firstFrame + MeasuredExport.frameIndex(offset, sourceFrameDuration)
            let index = PaintedMedia.readIndex(frames[k])
            let blue = frames[k].meanColor(in: Rect(x: 100, y: 60, width: 40, height: 40)).blue > 200
            if index != expected || blue == cut.isNTSC {
                mismatches.append("frame \(k) (\(time)): index \(index.map(String.init) ?? "?") \(blue ? "600" : "NTSC"), expected \(expected) \(cut.isNTSC ? "NTSC" : "600")")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(count) frames wrong: \(mismatches.prefix(8))")

        let audio = try await Readback.audio(of: output)
        let inner = Int(total.convertScale(48_000).value) - 2048
        let gaps = Measure.silentRuns(audio[0], start: 2048, end: inner, threshold: 1e-3, minimum: 8)
        #expect(gaps.isEmpty, "silent gaps inside the cut audio: \(gaps.prefix(5))")
    }

    /// Matroska counts whole milliseconds: 30 fps frames are 33 or 34 ms apart, 29.97 fps ones too. The default
    /// video composition asks for the standard rate the frames really have (1/30 s, 1001/30000 s), not 1/(33 ms),
    /// so a 2 s clip exports as 60 frames and frame k shows source frame k.
    @Test(arguments: [
        (frameDuration: MediaTime(value: 1, timescale: 30), milliseconds: Int64(2_000)),
        (frameDuration: MediaTime(value: 1001, timescale: 30_000), milliseconds: Int64(2_002)),
    ])
    func millisecondClockKeepsTheStandardRate(rate: (frameDuration: MediaTime, milliseconds: Int64)) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = scratch.file("ms-clock.mkv")
        let fd = rate.frameDuration
        try PaintedMedia.write(to: url, format: "matroska", video: .constantRate(
            width: Self.size.width, height: Self.size.height, timescale: fd.timescale, frameDuration: fd.value, count: 60,
            picture: { PaintedMedia.indexed($0) }), audio: nil)
        let asset = try await Asset.load(from: url)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        #expect(track.naturalTimeScale == 1000)
        #expect(track.video?.minFrameDuration == .ms(33))
        #expect(MutableVideoComposition.standardFrameDuration(of: track) == fd)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(rate.milliseconds)), of: asset, at: .zero)
        let video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.frameDuration == fd)
        let output = scratch.file("ms-clock.mp4")
        let result = try await MeasuredExport.export(composition, to: output)
        #expect(result.tracks[0].video?.frameCount == 60)
        let frames = try await MeasuredExport.frames(of: output, frameDuration: fd, count: 60)
        #expect(frames.map { PaintedMedia.readIndex($0) } == (0..<60).map { Optional($0) })
    }

    /// Key frames every 30 frames (1 s); a trim starting at 1.5 s (frame 45, mid-GOP) shows frame 45 first, then
    /// 46, 47, … — decoded from the key frame at 1 s, never frozen, never black. Also for long-GOP HEVC (key frames
    /// every 60 frames: the trim lies 45 frames after the key frame at 0).
    @Test(arguments: ["libx264", "libx265"])
    func trimStartingMidGOPShowsTheRightFirstFrame(encoder: String) async throws {
        guard MediaLibrary.hasEncoder(named: encoder) else { return }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = scratch.file("gop-\(encoder).mov")
        var clip = PaintedMedia.Video.constantRate(
            width: Self.size.width, height: Self.size.height, timescale: 30, frameDuration: 1, count: 90,
            picture: { PaintedMedia.indexed($0) })
        clip.encoder = encoder
        clip.keyFrameInterval = encoder == "libx265" ? 60 : 30
        try PaintedMedia.write(to: url, video: clip, audio: nil)
        let asset = try await Asset.load(from: url)
        #expect(asset.tracks[0].codecName == (encoder == "libx265" ? "hevc" : "h264"))
        var composition = MutableComposition()
        let start = MediaTime(value: 45, timescale: 30)
        try composition.insertTimeRange(TimeRange(start: start, duration: MediaTime(seconds: 1)), of: asset, at: .zero)
        let output = scratch.file("trim.mp4")
        try await MeasuredExport.export(composition, to: output)
        let frames = try await MeasuredExport.frames(of: output, frameDuration: MediaTime(value: 1, timescale: 30), count: 30)
        let first = Int(start.value)
        #expect(frames.map { PaintedMedia.readIndex($0) } == (first..<(first + 30)).map { Optional($0) })
    }
}
