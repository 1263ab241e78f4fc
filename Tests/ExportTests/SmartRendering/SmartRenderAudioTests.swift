import Foundation
import SpliceFFmpeg
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// Smart rendering's audio: the source's AAC packets copied when the whole audio track is untouched (decoded, the
/// output equals the source's own decode sample for sample, and lasts the composition's duration to the sample),
/// re-encoded with the reason otherwise; flash + beep markers stay within one frame of each other either way.
@Suite("Smart rendering: audio copy and A/V sync")
struct SmartRenderAudioTests {
    static let frame = MediaTime(value: 1, timescale: 30)
    static let samplesPerFrame = 1600
    /// A white frame every 20 frames (0.667 s) from frame 7, black otherwise.
    static let flashes = "color=c=black:s=320x240:r=30,drawbox=x=0:y=0:w=320:h=240:color=white:t=fill:enable='eq(mod(n,20),7)'"
    /// The partner beeps: 1 kHz, 0.5 peak, on exactly the samples of each white frame (sin 0 = 0 on the first).
    static let beeps = "aevalsrc=exprs='if(eq(mod(floor(n/1600),20),7),0.5*sin(2*PI*1000*mod(n,1600)/48000),0)'"
        + ":s=48000:c=stereo:n=1024"
    static let sourceFrames = 360

    /// A 12 s marker source in two files, as a phone's: H.264 with 2 s closed GOPs (B-frames, B-pyramid) and, from
    /// the same generator clock, AAC (an ordinary audio-only export of the PCM: priming packet + edit list).
    static func makeSource(in scratch: ScratchDirectory) async throws -> (video: AssetTrack, audio: AssetTrack, audioURL: URL) {
        let mov = scratch.file("markers.mov")
        try SyntheticMedia.write(
            video: flashes, audio: beeps, duration: frame * Int64(sourceFrames), pixelFormat: .yuv420p,
            videoCodec: .h264(x264Parameters: "keyint=60:min-keyint=60:scenecut=0:bframes=3:b-pyramid=normal:open-gop=0"),
            to: mov)
        let lossless = try await Asset.load(from: mov)
        let pcm = try #require(lossless.tracks(withMediaType: .audio).first)
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(pcm.timeRange, of: pcm, at: .zero, intoTrackWithID: id)
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: nil, audio: AudioSettings()))
        let audioURL = scratch.file("beeps.m4a")
        session.outputURL = audioURL
        session.outputFileType = .m4a
        try await session.export()
        let aac = try #require(try await Asset.load(from: audioURL).tracks(withMediaType: .audio).first)
        #expect(aac.codecName == "aac")
        return (try #require(lossless.tracks(withMediaType: .video).first), aac, audioURL)
    }

    /// The video and audio of `pieces` (source seconds) back to back, a 2 s title over `title`, smart rendered.
    static func session(
        _ source: (video: AssetTrack, audio: AssetTrack, audioURL: URL), pieces: [(Double, Double)], title: TimeRange?,
        output: URL, mix: MutableAudioMix? = nil
    ) throws -> AssetExportSession {
        let settings = ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(12), encoderPreset: "veryfast"), audio: AudioSettings())
        let session = try SmartRenderEdit.session(
            [source.video, source.audio], pieces: pieces, title: title, settings: settings, output: output).session
        session.audioMix = mix
        return session
    }

    /// The white frames of `url` and the beep onsets (first sample above 0.05, then the next at least a frame on).
    static func markers(of url: URL, frameCount: Int) async throws -> (flashes: [Int], onsets: [Int]) {
        let frames = try await MeasuredExport.frames(of: url, frameDuration: frame, count: frameCount)
        let audio = try await Readback.audio(of: url)[0]
        var onsets: [Int] = []
        var from = 0
        while let onset = Measure.onset(audio, from: from) {
            onsets.append(onset)
            from = onset + 2 * samplesPerFrame
        }
        return (Measure.whiteFrames(frames), onsets)
    }

    /// Every expected flash is there, and each has its beep within one frame (1600 samples) of the flash's first
    /// sample; no other beep.
    static func checkSync(_ url: URL, frameCount: Int, expectedFlashes: [Int]) async throws {
        let (flashes, onsets) = try await markers(of: url, frameCount: frameCount)
        #expect(flashes == expectedFlashes, "white frames \(flashes), expected \(expectedFlashes)")
        #expect(onsets.count == flashes.count, "beep onsets \(onsets) for flashes \(flashes)")
        var worst = 0
        for (flash, onset) in zip(flashes, onsets) {
            let offset = onset - (flash * samplesPerFrame + 1)
            worst = max(worst, abs(offset))
            #expect(abs(offset) < samplesPerFrame, "the beep of the flash at frame \(flash) is \(offset) samples off")
        }
        print("A/V sync of \(url.lastPathComponent): \(flashes.count) markers, worst beep offset \(worst) samples")
    }

    /// The audio track's duration — as the container declares it (the edit list) and as ``Asset/load(from:)``
    /// counts it, `uncounted` samples less (a source's quirk the copy keeps, see the M09 test) — and a clean decode
    /// by the ffmpeg command-line tool.
    static func checkDurationAndDecode(_ url: URL, duration: MediaTime, uncounted: Int64 = 0) async throws {
        let exported = try await Asset.load(from: url)
        let audio = try #require(exported.tracks(withMediaType: .audio).first)
        let samples = duration.convertScale(48_000).value
        #expect(audio.timeRange.duration == MediaTime(value: samples - uncounted, timescale: 48_000),
                "audio lasts \(audio.timeRange.duration), the composition \(duration)")
        let input = try InputFile(url: url)
        let stream = input.stream(at: audio.streamIndex).pointee
        #expect(MediaTime(pts: stream.duration, timeBase: stream.time_base) == duration,
                "the container declares \(stream.duration) × \(stream.time_base.num)/\(stream.time_base.den) s")
        // libavcodec gives every sample of the last AAC packet (FFmpeg 5.1's demuxer does not apply the end of the
        // edit list): the decode starts at 0 and ends in the packet holding the composition's last sample.
        let decoded = try await DecodedAudio.sampleCount(of: url)
        #expect(decoded.first == .zero)
        #expect(decoded.count >= Int(samples - uncounted) && decoded.count < Int(samples) + 1024,
                "decoded \(decoded.count) samples for a composition of \(samples)")
        try await FFmpegCommandLine.expectCleanDecode(of: url)
    }

    /// One untouched piece (0.5 – 11.5 s) under a 2 s title: the video's groups copied around the title, the audio's
    /// AAC packets copied — equal to the source's decode sample for sample from a start between two AAC packets
    /// (0.5 s = 23.4375 packets), 11 s exactly, every beep on its flash.
    @Test func untouchedAudioIsCopiedSampleExact() async throws {
        let scratch = try ScratchDirectory("smart-audio-copy")
        defer { scratch.remove() }
        let source = try await Self.makeSource(in: scratch)
        let output = scratch.file("copy.mp4")
        let title = TimeRange(start: MediaTime(seconds: 4), duration: MediaTime(seconds: 2))
        let session = try Self.session(source, pieces: [(0.5, 11.5)], title: title, output: output)
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.copiedGroupCount == 2, "\(report)")  // the groups at 2 s and 8 s (source): 1.5–3.5 and 7.5–9.5 s
        #expect(report.copiedFrameCount == 120, "\(report)")
        let audioReport = try #require(report.audio, "\(report)")
        #expect(audioReport.isCopied, "\(report)")
        #expect(report.description.contains("audio copy 0.000–11.000 s"), "\(report)")

        let written = try await Readback.audio(of: output)
        let original = try await Readback.audio(of: source.audioURL)
        let count = 11 * 48_000, offset = 24_000
        #expect(written[0].count == count)
        var maximum: Float = 0
        for channel in 0..<2 {
            for n in 0..<min(count, written[channel].count) {
                maximum = max(maximum, abs(written[channel][n] - original[channel][n + offset]))
            }
        }
        #expect(maximum == 0, "copied audio differs from the source's decode by up to \(maximum)")
        try await Self.checkDurationAndDecode(output, duration: MediaTime(seconds: 11))
        let expected = stride(from: 7, to: Self.sourceFrames, by: 20).map { $0 - 15 }.filter { $0 >= 0 && $0 < 330 }
        try await Self.checkSync(output, frameCount: 330, expectedFlashes: expected)
    }

    /// Three cuts and a 2 s title over the middle piece: the video's whole groups copied, the audio re-encoded (the
    /// cuts), the report saying so per span; every marker's beep within one frame of its flash; the duration exact.
    @Test func threeCutsAndATitleKeepEveryMarkerInSync() async throws {
        let scratch = try ScratchDirectory("smart-audio-cuts")
        defer { scratch.remove() }
        let source = try await Self.makeSource(in: scratch)
        let output = scratch.file("cuts.mp4")
        let session = try Self.session(source, pieces: SmartRenderEdit.threeCuts, title: SmartRenderEdit.middleTitle, output: output)
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.copiedGroupCount == 1, "\(report)")  // the group at 10 s (source): 8–10 s
        #expect(report.copiedFrameCount == 60, "\(report)")
        let audio = try #require(report.audio)
        #expect(!audio.isCopied)
        #expect(audio.spans.map(\.timeRange.start.seconds) == [0, 2.5, 7.5], "\(audio)")
        #expect(audio.spans.allSatisfy {
            $0.action == .reencode && $0.reason == .reencodedWithTheTrack(because: "a cut between two untouched segments at 2.500 s")
        }, "\(audio)")
        try await Self.checkDurationAndDecode(output, duration: MediaTime(seconds: 10))
        // Output frame k shows source frame k + 15 (first piece), k + 45 (second), k + 60 (third).
        let expected = stride(from: 7, to: Self.sourceFrames, by: 20).compactMap { (s: Int) -> Int? in
            if s >= 15 && s < 90 { return s - 15 }
            if s >= 120 && s < 270 { return s - 45 }
            if s >= 285 { return s - 60 }
            return nil
        }
        try await Self.checkSync(output, frameCount: 300, expectedFlashes: expected)
    }

    /// Phone footage M09 (1080p30, AAC 48 kHz stereo with an edit list skipping 1024 priming samples, audio longer
    /// than the video): the video's range with a title over 0.5–1 s. The groups at 2 and 3 s are copied, and the
    /// audio's AAC packets — equal to the source's own decode sample for sample (so in sync to the sample), lasting
    /// the video's 106 frames exactly (the edit list). M09's first AAC packet after the priming is stamped 1169
    /// samples long (its `stts`) but decodes to 1024: the copy keeps the stamps, so Splice's loader counts 145
    /// samples less in both the source and the copy.
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func realFootageM09AudioIsCopiedSampleExact() async throws {
        let scratch = try ScratchDirectory("smart-audio-m09")
        defer { scratch.remove() }
        let sourceURL = Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4")
        let asset = try await Asset.load(from: sourceURL)
        let video = try #require(asset.tracks(withMediaType: .video).first)
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        let output = scratch.file("m09.mp4")
        let title = TimeRange(start: MediaTime(seconds: 0.5, preferredTimescale: 30), duration: MediaTime(seconds: 0.5, preferredTimescale: 30))
        let session = try Self.session((video, audio, sourceURL), pieces: [(0, video.timeRange.end.seconds)], title: title, output: output)
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.copiedGroupCount == 2, "\(report)")
        #expect(report.audio?.isCopied == true, "\(report)")
        let duration = MediaTime(value: 106, timescale: 30)
        try await Self.checkDurationAndDecode(output, duration: duration, uncounted: 145)
        let sourceSamples = MediaTime(value: 3_608, timescale: 1_000).convertScale(48_000).value  // ffprobe: 3.608 s
        #expect(audio.timeRange.duration == MediaTime(value: sourceSamples - 145, timescale: 48_000), "\(audio.timeRange.duration)")
        let written = try await Readback.audio(of: output)
        let original = try await Readback.audio(of: sourceURL)
        let count = Int(duration.convertScale(48_000).value) - 145
        #expect(written[0].count == count)
        var maximum: Float = 0
        for channel in 0..<2 {
            for n in 0..<min(count, written[channel].count, original[channel].count) {
                maximum = max(maximum, abs(written[channel][n] - original[channel][n]))
            }
        }
        #expect(maximum == 0, "copied audio differs from the source's decode by up to \(maximum)")
    }

    /// The planner's refusals, span by span: a volume ramp (3–5 s), another output codec, a speed change (the
    /// untouched rest re-encoded with the track, saying why); a source that continues across two segments is copied.
    @Test func refusalsNameTheSpanAndTheCause() async throws {
        let scratch = try ScratchDirectory("smart-audio-refusals")
        defer { scratch.remove() }
        let source = try await Self.makeSource(in: scratch)
        var mix = MutableAudioMix()
        var parameters = AudioMixInputParameters(trackID: 2)
        parameters.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0.5, timeRange: TimeRange(start: MediaTime(seconds: 3), end: MediaTime(seconds: 5)))
        mix.inputParameters = [parameters]
        let session = try Self.session(source, pieces: [(0, 10)], title: nil, output: scratch.file("ramp.mp4"), mix: mix)
        let plan = try session.makePlan()
        let audio = try #require(plan.audio)
        let planned = SmartRenderAudioPlanner(audio: audio, settings: AudioSettings(), mix: mix, rangeStart: .zero).plan()
        #expect(planned.copy == nil)
        let ramp = TimeRange(start: MediaTime(seconds: 3), end: MediaTime(seconds: 5))
        #expect(planned.report.spans == [SmartRenderAudioReport.Span(
            timeRange: TimeRange(start: .zero, end: MediaTime(seconds: 10)), action: .reencode, reason: .volume(ramp))],
                "\(planned.report)")

        let untouched = SmartRenderAudioPlanner(audio: audio, settings: AudioSettings(), mix: nil, rangeStart: .zero).plan()
        #expect(untouched.copy?.sampleCount == 480_000)
        #expect(untouched.copy?.sourceStart == .zero)
        #expect(untouched.report.isCopied)
        // Two segments where the source simply continues (no real cut) are one untouched span.
        let split = try Self.session(source, pieces: [(0, 5), (5, 10)], title: nil, output: scratch.file("split.mp4"))
        let joined = SmartRenderAudioPlanner(
            audio: try #require(try split.makePlan().audio), settings: AudioSettings(), mix: nil, rangeStart: .zero).plan()
        #expect(joined.copy?.sourceStart == .zero && joined.report.isCopied, "\(joined.report)")
        let opus = SmartRenderAudioPlanner(audio: audio, settings: AudioSettings(codec: .opus), mix: nil, rangeStart: .zero).plan()
        #expect(opus.copy == nil)
        #expect(opus.report.spans.first?.reason == .notSupported("the output codec is opus; only AAC is copied"))

        // A speed change on the second half: that span names it, the untouched first half goes with the track.
        var composition = session.asset
        try composition.scaleTimeRange(TimeRange(start: MediaTime(seconds: 5), end: MediaTime(seconds: 10)), toDuration: MediaTime(seconds: 10))
        let slowed = AssetExportSession(asset: composition, settings: try #require(session.settings))
        slowed.outputURL = scratch.file("slowed.mp4")
        let slowedAudio = try #require(try slowed.makePlan().audio)
        let spans = SmartRenderAudioPlanner(audio: slowedAudio, settings: AudioSettings(), mix: nil, rangeStart: .zero).plan().report.spans
        #expect(spans.map(\.reason) == [.reencodedWithTheTrack(because: "from 5.000 s: the segment plays at a changed speed or has a time effect"), .speed],
                "\(spans)")
    }
}

/// Decoding an output's audio with libavcodec, as a player would.
enum DecodedAudio {
    /// The samples per channel the decoder gives for the first audio stream of `url` (after the demuxer's skip of
    /// the edit list's start), and the first frame's presentation time.
    static func sampleCount(of url: URL) async throws -> (count: Int, first: MediaTime?) {
        let asset = try await Asset.load(from: url)
        let track = try #require(asset.tracks(withMediaType: .audio).first)
        let decoder = try StreamDecoder(track: track, threads: 1, cancellation: CancellationFlag())
        let frame = try Frame()
        var count = 0
        var first: MediaTime?
        while try decoder.decode(into: frame) {
            if first == nil { first = MediaTime(pts: frame.pts, timeBase: decoder.timeBase) }
            count += frame.sampleCount
        }
        return (count, first)
    }
}
