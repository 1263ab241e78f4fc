import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// Subtitle tracks loaded from files and sidecars, cut with the picture, and written into each container's text
/// format; every cue read back by the `ffmpeg` command-line tool (converted to SubRip: times to the millisecond).
@Suite struct SubtitleExportTests {
    /// Two cues: 0.500–1.250 s (italic "world") and 1.800–3.100 s (two lines).
    static let srt = """
        1
        00:00:00,500 --> 00:00:01,250
        Hello <i>world</i>

        2
        00:00:01,800 --> 00:00:03,100
        Second line
        two

        """

    /// The CLI's `-f srt` text of the subtitle stream `index` of `url`, or nil (one skip line printed) without the CLI.
    static func cues(of url: URL, stream index: Int = 0) async throws -> String? {
        try await run(FFmpegCommandLine.path, ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:s:\(index)", "-f", "srt", "-"])
    }

    /// The `key=value` lines ffprobe prints for the subtitle streams of `url`.
    static func subtitleStreams(of url: URL) async throws -> String? {
        try await run(Executable.find("ffprobe"), [
            "-v", "error", "-select_streams", "s", "-show_entries",
            "stream=codec_name:stream_tags=language,title:stream_disposition=default,forced", "-of", "default=nw=1", url.path,
        ])
    }

    private static func run(_ tool: String?, _ arguments: [String]) async throws -> String? {
        guard let tool else { return nil }
        let log = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("subtitles-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try ChildProcess(executable: tool, arguments: arguments, standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60), "\(tool) did not finish")
        #expect(child.exitCode == 0, "\(tool) \(arguments) failed")
        return (try? TextFile.read(log))?.replacingOccurrences(of: "\r\n", with: "\n")
    }

    static func export(_ composition: MutableComposition, to url: URL, codec: SubtitleCodec? = nil) async throws {
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = url
        session.subtitleCodec = codec
        try await session.export()
    }

    @Test func aSidecarSubRipFileLoadsAsOneSubtitleTrackLastingToItsLastCue() async throws {
        let scratch = try ScratchDirectory("subtitles")
        defer { scratch.remove() }
        let asset = try await Asset.load(from: try scratch.write("captions.srt", Self.srt))
        #expect(asset.tracks.count == 1)
        let track = try #require(asset.tracks.first)
        #expect(track.mediaType == .subtitle)
        #expect(track.codecName == "subrip")
        #expect(track.subtitle?.cueCount == 2)
        #expect(track.timeRange == TimeRange(start: .zero, duration: .ms(3100)))
        #expect(asset.duration == .ms(3100))
    }

    @Test func cuesAreTrimmedAtACutAndMovedWithTheRippleInEveryContainer() async throws {
        let scratch = try ScratchDirectory("subtitles")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(4000), in: scratch.url, name: "clip")
        var captions = try await Asset.load(from: try scratch.write("captions.srt", Self.srt))
        captions.tracks[0].languageCode = "fra"
        var composition = try MutableComposition(asset: video)
        let text = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(captions.tracks[0].timeRange, of: captions.tracks[0], at: .zero, intoTrackWithID: text)
        // Cut [1.0, 1.5): the first cue now ends at the cut (1.000), the second moves 0.5 s earlier.
        try composition.removeTimeRange(TimeRange(start: .ms(1000), duration: .ms(500)))
        let expected = """
            1
            00:00:00,500 --> 00:00:01,000
            Hello <i>world</i>

            2
            00:00:01,300 --> 00:00:02,600
            Second line
            two


            """
        for (name, codec, codecName) in [("cut.mp4", nil, "mov_text"), ("cut.mkv", nil, "subrip"),
                                         ("cut-vtt.mkv", SubtitleCodec.webVTT, "webvtt"), ("cut.mov", nil, "mov_text")] {
            let url = scratch.file(name)
            try await Self.export(composition, to: url, codec: codec)
            guard let cues = try await Self.cues(of: url), let streams = try await Self.subtitleStreams(of: url) else { return }
            #expect(cues == expected, "\(name)")
            #expect(streams.contains("codec_name=\(codecName)"), "\(name): \(streams)")
            #expect(streams.contains("TAG:language=fra"), "\(name): \(streams)")
        }
    }

    @Test func aMovieWithTimedTextBringsItsCuesAlongWhenInsertedWhole() async throws {
        let scratch = try ScratchDirectory("subtitles")
        defer { scratch.remove() }
        guard let ffmpeg = FFmpegCommandLine.path else { return }
        let srt = try scratch.write("captions.srt", Self.srt)
        let movie = scratch.file("movie.mp4")
        _ = try await Self.run(ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4", "-i", srt.path,
            "-c:v", "libx264", "-c:s", "mov_text", "-metadata:s:s:0", "language=ger", movie.path,
        ])
        let asset = try await Asset.load(from: movie)
        let track = try #require(asset.tracks(withMediaType: .subtitle).first)
        #expect(track.codecName == "mov_text")
        #expect(track.languageCode == "ger")
        #expect(track.subtitle?.cueCount == 2)
        #expect(track.timeRange.end == .ms(3100))

        // The clip from 1.0 s, then the clip whole: cue 1 starts at the cut, and appears again in the second copy.
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .ms(1000), duration: .ms(3000)), of: asset, at: .zero)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(4000)), of: asset, at: .invalid)
        #expect(composition.tracks(withMediaType: .subtitle).count == 1)
        let out = scratch.file("twice.mkv")
        try await Self.export(composition, to: out)
        guard let cues = try await Self.cues(of: out), let streams = try await Self.subtitleStreams(of: out) else { return }
        #expect(cues == """
            1
            00:00:00,000 --> 00:00:00,250
            Hello <i>world</i>

            2
            00:00:00,800 --> 00:00:02,100
            Second line
            two

            3
            00:00:03,500 --> 00:00:04,250
            Hello <i>world</i>

            4
            00:00:04,800 --> 00:00:06,100
            Second line
            two


            """)
        #expect(streams.contains("TAG:language=ger"), "\(streams)")
    }

    @Test func scalingTheTimelineScalesTheCues() async throws {
        let scratch = try ScratchDirectory("subtitles")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(4000), in: scratch.url, name: "clip")
        let captions = try await Asset.load(from: try scratch.write("captions.srt", Self.srt))
        var composition = try MutableComposition(asset: video)
        let text = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(captions.tracks[0].timeRange, of: captions.tracks[0], at: .zero, intoTrackWithID: text)
        // Half speed from 0.4 s on: 0.5 → 0.6, 1.25 → 2.1, 1.8 → 3.2, 3.1 → 5.8.
        try composition.scaleTimeRange(TimeRange(start: .ms(400), duration: .ms(3600)), toDuration: .ms(7200))
        let url = scratch.file("slow.mkv")
        try await Self.export(composition, to: url)
        guard let cues = try await Self.cues(of: url) else { return }
        #expect(cues == """
            1
            00:00:00,600 --> 00:00:02,100
            Hello <i>world</i>

            2
            00:00:03,200 --> 00:00:05,800
            Second line
            two


            """)
    }

    @Test func aSubtitleCodecTheContainerCannotHoldIsRefusedBeforeWriting() async throws {
        let scratch = try ScratchDirectory("subtitles")
        defer { scratch.remove() }
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(1000), in: scratch.url, name: "clip")
        let url = scratch.file("refused.mp4")
        await #expect(throws: ExportError.unsupportedSettings("a .mp4 file cannot hold subRip subtitles; it holds movText")) {
            try await Self.export(try MutableComposition(asset: video), to: url, codec: .subRip)
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
