import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `splice storyboard`: the sheets and WebVTT track of a document, read back with `ffprobe` and `ffmpeg`.
@Suite struct StoryboardCLITests {
    /// Ctrl-C mid-way: exit 130 and nothing in the folder — no short storyboard, no hidden part-file.
    @Test func ctrlCLeavesNoSheetAndNoPartFile() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(at: scratch.file("red.mkv"), withDestinationURL: Fixture.url("solid/red-2s-ffv1.mkv"))
        let clips = Array(repeating: #"{ "source": "red.mkv" }"#, count: 60).joined(separator: ", ")
        _ = try scratch.write("long.json", #"{ "version": 1, "clips": [ \#(clips) ] }"#)
        try FileManager.default.createDirectory(at: scratch.file("board"), withIntermediateDirectories: true)
        // 120 s every 0.1 s: 1200 pictures, seconds of work after the handler is in place.
        let started = try SpliceTool.start(["storyboard", "long.json", "-o", "board", "--every", "0.1s", "--width", "64"], in: scratch.url)
        let sent = await started.sendOnceCaught(SIGINT, after: 0.3)
        #expect(sent, "the command never caught SIGINT, or ended before it was sent")
        let run = try await SpliceTool.finish(started, arguments: ["storyboard"], timeout: 120)
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("cancelling"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("board").path) == [])
    }

    @Test func writesTheSheetsAndTheThumbnailTrack() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(at: scratch.file("red.mkv"), withDestinationURL: Fixture.url("solid/red-2s-ffv1.mkv"))
        _ = try scratch.write("red.json", #"{ "version": 1, "clips": [ { "source": "red.mkv" } ] }"#)
        try FileManager.default.createDirectory(at: scratch.file("board"), withIntermediateDirectories: true)
        let run = try await SpliceTool.run(["storyboard", "red.json", "-o", "board", "--every", "0.5s", "--grid", "2x2",
                                            "--width", "64", "--name", "red"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote 1 sheet and"))
        #expect(run.stderr.contains("(4 thumbnails of 64x48)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("board").path).sorted() == ["red-0.jpg", "red.vtt"])
        #expect(try TextFile.read(scratch.file("board/red.vtt")) == """
            WEBVTT

            00:00:00.000 --> 00:00:00.500
            red-0.jpg#xywh=0,0,64,48

            00:00:00.500 --> 00:00:01.000
            red-0.jpg#xywh=64,0,64,48

            00:00:01.000 --> 00:00:01.500
            red-0.jpg#xywh=0,48,64,48

            00:00:01.500 --> 00:00:02.000
            red-0.jpg#xywh=64,48,64,48

            """)
        _ = try await MediaTool.run("ffmpeg", ["-v", "error", "-i", scratch.file("board/red-0.jpg").path, "-vf",
                                               "crop=8:8:92:68,scale=1:1:flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24",
                                               scratch.file("pixel.rgb").path])
        let pixel = [UInt8](try BinaryFile.read(scratch.file("pixel.rgb")))  // the mean of 8 × 8 pixels in the last tile
        #expect(pixel.count == 3)
        if pixel.count == 3 {
            #expect(pixel[0] >= 250 && pixel[1] <= 5 && pixel[2] <= 5, "\(pixel)")
        }

        let again = try await SpliceTool.run(["storyboard", "red.json", "-o", "board", "--name", "red", "--every", "0.5s", "--grid", "2x2",
                                              "--width", "64"], in: scratch.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists"))
        let badGrid = try await SpliceTool.run(["storyboard", "red.json", "-o", "board", "--grid", "0x5"], in: scratch.url)
        #expect(badGrid.status == 2)
        #expect(badGrid.stderr.contains("columns 0 is outside 1…64"))
        let noFolder = try await SpliceTool.run(["storyboard", "red.json", "-o", "missing"], in: scratch.url)
        #expect(noFolder.status == 1)

        // A poster: `frame` with a JPEG name.
        let poster = try await SpliceTool.run(["frame", "red.json", "--at", "1.5s", "-o", "poster.jpg"], in: scratch.url)
        #expect(poster.status == 0, "\(poster.stderr)")
        let probe = try await MediaTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0",
                                                        scratch.file("poster.jpg").path])
        #expect(probe.output == "mjpeg,320,240\n")
        let hdr = try await SpliceTool.run(["frame", "red.json", "--at", "1s", "-o", "p.jpeg", "--dynamic-range", "match-source"],
                                           in: scratch.url)
        #expect(hdr.status == 2)
    }
}
