import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// Subtitle tracks through a full cycle: SubRip into a composition, out as WebVTT, back in and out as SubRip with the
/// same text and times; the default and forced flags read from a source and written by each container; a format the
/// container cannot hold refused by `validate()` as by `export()`.
@Suite struct SubtitleRoundTripTests {
    /// One track of ``SubtitleExportTests/srt`` on a 4 s picture, cut [1.0, 1.5) (the first cue ends at the cut, the
    /// second moves 0.5 s earlier) and then 0.5 s of nothing inserted at 2.0 s, inside the second cue.
    static func editedCaptions(in scratch: ScratchDirectory) async throws -> MutableComposition {
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(4000), in: scratch.url, name: "clip")
        let captions = try await Asset.load(from: try scratch.write("captions.srt", SubtitleExportTests.srt))
        var composition = try MutableComposition(asset: video)
        let text = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(captions.tracks[0].timeRange, of: captions.tracks[0], at: .zero, intoTrackWithID: text)
        try composition.removeTimeRange(TimeRange(start: .ms(1000), duration: .ms(500)))
        try composition.insertEmptyTimeRange(TimeRange(start: .ms(2000), duration: .ms(500)))
        return composition
    }

    /// The edit's cues: 0.500–1.000 (cut), then the second cue moved 0.5 s earlier and split by the empty range:
    /// 1.300–2.000 and 2.500–3.100.
    static let editedCues = """
        1
        00:00:00,500 --> 00:00:01,000
        Hello <i>world</i>

        2
        00:00:01,300 --> 00:00:02,000
        Second line
        two

        3
        00:00:02,500 --> 00:00:03,100
        Second line
        two


        """

    @Test func subRipThroughACompositionToWebVTTAndBackKeepsTextAndTimes() async throws {
        let scratch = try ScratchDirectory("subtitle-round-trip")
        defer { scratch.remove() }
        // SubRip → composition → WebVTT in WebM (picture only, so every track starts at 0).
        let webm = scratch.file("captions.webm")
        let session = AssetExportSession(asset: try await Self.editedCaptions(in: scratch), settings: ExportSettings(
            video: VideoSettings(codec: .vp9, encoderPreset: "ultrafast"), audio: nil))
        session.outputURL = webm
        try await session.export()
        let loaded = try await Asset.load(from: webm)
        let track = try #require(loaded.tracks(withMediaType: .subtitle).first)
        #expect(track.codecName == "webvtt")
        #expect(track.subtitle?.cueCount == 3)
        #expect(track.timeRange.end == .ms(3100))

        // WebVTT → composition → SubRip in Matroska: the same cues, to the millisecond.
        var again = MutableComposition()
        try again.insertTimeRange(TimeRange(start: .zero, duration: loaded.duration), of: loaded, at: .zero)
        let mkv = scratch.file("captions.mkv")
        try await SubtitleExportTests.export(again, to: mkv)
        guard let webVTTCues = try await SubtitleExportTests.cues(of: webm),
              let subRipCues = try await SubtitleExportTests.cues(of: mkv),
              let streams = try await SubtitleExportTests.subtitleStreams(of: mkv) else { return }
        #expect(webVTTCues == Self.editedCues)
        #expect(subRipCues == Self.editedCues)
        #expect(streams.contains("codec_name=subrip"), "\(streams)")
    }

    /// A Matroska file the `ffmpeg` tool writes with one SubRip track flagged default and forced, in English, named;
    /// nil (recorded as skipped) without the tool.
    static func flaggedSource(in scratch: ScratchDirectory) async throws -> URL? {
        guard let ffmpeg = Executable.required("ffmpeg") else { return nil }
        let srt = try scratch.write("captions.srt", SubtitleExportTests.srt)
        let url = scratch.file("flagged.mkv")
        _ = try await Executable.output(of: ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4", "-i", srt.path,
            "-map", "0", "-map", "1", "-c:v", "libx264", "-preset", "ultrafast", "-c:s", "srt",
            "-metadata:s:s:0", "language=eng", "-metadata:s:s:0", "title=Signs", "-disposition:s:0", "default+forced",
            url.path,
        ])
        return url
    }

    @Test func defaultAndForcedFlagsAreReadAndWrittenWhereTheContainerKeepsThem() async throws {
        let scratch = try ScratchDirectory("subtitle-flags")
        defer { scratch.remove() }
        guard let source = try await Self.flaggedSource(in: scratch) else { return }
        let asset = try await Asset.load(from: source)
        let track = try #require(asset.tracks(withMediaType: .subtitle).first)
        #expect(track.languageCode == "eng")
        #expect(track.subtitle == SubtitleTrackFormat(title: "Signs", isDefault: true, isForced: true, cueCount: 2))

        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(4000)), of: asset, at: .zero)
        // Matroska keeps both flags and the name; MP4 both flags (FFmpeg reads the name of neither MP4 nor MOV
        // back); MOV the default flag only: FFmpeg 5.1's mov muxer writes no forced flag in a QuickTime movie.
        let expected = [
            "mkv": "codec_name=subrip\nDISPOSITION:default=1\nDISPOSITION:forced=1\nTAG:language=eng\nTAG:title=Signs\n",
            "mp4": "codec_name=mov_text\nDISPOSITION:default=1\nDISPOSITION:forced=1\nTAG:language=eng\n",
            "mov": "codec_name=mov_text\nDISPOSITION:default=1\nDISPOSITION:forced=0\nTAG:language=eng\n",
        ]
        for fileExtension in ["mkv", "mp4", "mov"] {
            let url = scratch.file("flags.\(fileExtension)")
            try await SubtitleExportTests.export(composition, to: url)
            guard let streams = try await SubtitleExportTests.subtitleStreams(of: url) else { return }
            #expect(streams == expected[fileExtension], "\(fileExtension): \(streams)")
            let written = try #require(try await Asset.load(from: url).tracks(withMediaType: .subtitle).first)
            #expect(written.subtitle?.isDefault == true, "\(fileExtension)")
            #expect(written.subtitle?.isForced == (fileExtension != "mov"), "\(fileExtension)")
            #expect(written.subtitle?.title == (fileExtension == "mkv" ? "Signs" : nil), "\(fileExtension)")
        }
    }

    @Test func validateRefusesASubtitleFormatTheContainerCannotHoldAsExportDoes() async throws {
        let scratch = try ScratchDirectory("subtitle-validate")
        defer { scratch.remove() }
        let composition = try await Self.editedCaptions(in: scratch)
        for (name, codec, message) in [
            ("refused.mp4", SubtitleCodec.subRip, "a .mp4 file cannot hold subRip subtitles; it holds movText"),
            ("refused.webm", SubtitleCodec.ass, "a .webm file cannot hold ass subtitles; it holds webVTT"),
            ("refused.mkv", SubtitleCodec.movText, "a .mkv file cannot hold movText subtitles; it holds subRip, ass, webVTT"),
        ] {
            func session() -> AssetExportSession {
                let session = name.hasSuffix(".webm")
                    ? AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(codec: .vp9), audio: nil))
                    : AssetExportSession(asset: composition, preset: .preset640x480)
                session.outputURL = scratch.file(name)
                session.subtitleCodec = codec
                return session
            }
            await #expect(throws: ExportError.unsupportedSettings(message)) { try await session().validate() }
            await #expect(throws: ExportError.unsupportedSettings(message)) { try await session().export() }
            #expect(!FileManager.default.fileExists(atPath: scratch.file(name).path))
        }
    }

    @Test func aSubtitleTrackIsWrittenAsASidecarFileInEachFormat() async throws {
        let scratch = try ScratchDirectory("subtitle-sidecar-export")
        defer { scratch.remove() }
        let composition = try await Self.editedCaptions(in: scratch)
        let trackID = try #require(composition.tracks(withMediaType: .subtitle).first?.trackID)
        for name in ["out.srt", "out.vtt", "out.ass"] {
            let url = scratch.file(name)
            try await AssetExportSession(asset: composition, preset: .preset640x480).exportSubtitles(ofTrackWithID: trackID, to: url)
            let loaded = try await Asset.load(from: url)
            #expect(loaded.tracks.first?.subtitle?.cueCount == 3, "\(name)")
            #expect(loaded.duration == .ms(3100), "\(name)")
            guard let cues = try await SubtitleExportTests.cues(of: url) else { return }
            #expect(cues == Self.editedCues, "\(name)")
        }
        let webVTT = try TextFile.read(scratch.file("out.vtt"))
        #expect(webVTT.hasPrefix("WEBVTT\n"), "\(webVTT)")
        #expect(webVTT.contains("00:01.300 --> 00:02.000"), "\(webVTT)")

        // The session's time range: 0.8–2.8 s, moved to 0.
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.timeRange = TimeRange(start: .ms(800), end: .ms(2800))
        let trimmed = scratch.file("trimmed.srt")
        try await session.exportSubtitles(ofTrackWithID: trackID, to: trimmed)
        #expect(try TextFile.read(trimmed).replacingOccurrences(of: "\r\n", with: "\n") == """
            1
            00:00:00,000 --> 00:00:00,200
            Hello <i>world</i>

            2
            00:00:00,500 --> 00:00:01,200
            Second line
            two

            3
            00:00:01,700 --> 00:00:02,000
            Second line
            two


            """)

        // An existing file, another extension, a track that is not subtitles: refused, nothing written.
        await #expect(throws: ExportError.outputFileExists(trimmed)) {
            try await AssetExportSession(asset: composition, preset: .preset640x480).exportSubtitles(ofTrackWithID: trackID, to: trimmed)
        }
        await #expect(throws: ExportError.unsupportedSettings("cannot tell the subtitle format from 'captions.txt'; use .srt, .vtt or .ass")) {
            try await AssetExportSession(asset: composition, preset: .preset640x480).exportSubtitles(ofTrackWithID: trackID, to: scratch.file("captions.txt"))
        }
        await #expect(throws: ExportError.invalidComposition("track 1 is a video track; only a subtitle track can be written as subtitles")) {
            try await AssetExportSession(asset: composition, preset: .preset640x480).exportSubtitles(ofTrackWithID: 1, to: scratch.file("video.srt"))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("video.srt").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasSuffix(".partial") }.isEmpty)
    }
}
