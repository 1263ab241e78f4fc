import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// QuickTime text tracks (AVFoundation's `AVMediaType.text`): a MOV's `text` track, as the `ffmpeg` tool writes one,
/// loads as a subtitle track, and Splice's MOV exports write their subtitle tracks as `text` tracks too.
@Suite struct QuickTimeTextTrackTests {
    @Test func aMOVTextTrackLoadsAsASubtitleTrackAndIsWrittenBackAsOne() async throws {
        let scratch = try ScratchDirectory("quicktime-text")
        defer { scratch.remove() }
        guard let ffmpeg = FFmpegCommandLine.path else { return }
        let srt = try scratch.write("captions.srt", SubtitleExportTests.srt)
        let movie = scratch.file("movie.mov")
        let log = scratch.file("ffmpeg.txt")
        let child = try ChildProcess(executable: ffmpeg, arguments: [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4", "-i", srt.path,
            "-c:v", "libx264", "-preset", "ultrafast", "-c:s", "mov_text", movie.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60))
        guard let ffprobe = Executable.required("ffprobe") else { return }
        #expect(try await Self.subtitleTags(of: movie, ffprobe: ffprobe, in: scratch) == "mov_text,text")

        let asset = try await Asset.load(from: movie)
        let track = try #require(asset.tracks(withMediaType: .subtitle).first)
        #expect(track.codecName == "mov_text")
        #expect(track.subtitle?.cueCount == 2)
        #expect(track.timeRange.end == .ms(3100))

        // The movie from 1 s: cue 1 cut at the clip's start, cue 2 1 s earlier; written as a `text` track again.
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .ms(1000), duration: .ms(3000)), of: asset, at: .zero)
        let url = scratch.file("edit.mov")
        try await SubtitleExportTests.export(composition, to: url)
        #expect(try await Self.subtitleTags(of: url, ffprobe: ffprobe, in: scratch) == "mov_text,text")
        #expect(try await SubtitleExportTests.cues(of: url) == """
            1
            00:00:00,000 --> 00:00:00,250
            Hello <i>world</i>

            2
            00:00:00,800 --> 00:00:02,100
            Second line
            two


            """)
    }

    /// `codec_name,codec_tag_string` of the first subtitle stream of `url`, by ffprobe.
    static func subtitleTags(of url: URL, ffprobe: String, in scratch: ScratchDirectory) async throws -> String {
        let log = scratch.file("tags-\(UUID().uuidString).txt")
        let child = try ChildProcess(executable: ffprobe, arguments: [
            "-v", "error", "-select_streams", "s:0", "-show_entries", "stream=codec_name,codec_tag_string", "-of", "csv=p=0",
            url.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 30))
        return try TextFile.read(log).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
