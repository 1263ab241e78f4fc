import Foundation
import SpliceTestSupport
import Testing

/// `splice export DOC --hls DIR --dash DIR`: an adaptive-bitrate package from a document, read back with `ffprobe`.
@Suite struct PackageCLITests {
    @Test func hlsAndDashShareOneFolderOfSegments() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        _ = try scratch.write("edit.json", #"{ "version": 1, "clips": [ { "source": "clipA.mp4", "duration": "2s" } ] }"#)
        let run = try await SpliceTool.run(["export", "edit.json", "--hls", "show", "--dash", "show", "--ladder", "360p:600k,180p:200k",
                                            "--segment-duration", "1s"], in: scratch.url, timeout: 240)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("360p-600k: 640x360, 2 segments"), "\(run.stderr)")
        #expect(run.stderr.contains("180p-200k: 320x180, 2 segments"), "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.file("show").path).sorted()
        #expect(files == ["180p-200k", "360p-600k", "audio-128k", "manifest.mpd", "master.m3u8"])
        let master = try String(contentsOf: scratch.file("show/master.m3u8"), encoding: .utf8)
        #expect(master.contains("RESOLUTION=640x360,FRAME-RATE=30.000,AUDIO=\"audio\"\n360p-600k/playlist.m3u8\n"), "\(master)")
        let frames = try await MediaTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                         "stream=nb_read_frames", "-of", "csv=p=0",
                                                         scratch.file("show/180p-200k/playlist.m3u8").path])
        #expect(frames.output.split(separator: "\n").first == "60")

        let again = try await SpliceTool.run(["export", "edit.json", "--hls", "show"], in: scratch.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists (use --overwrite to replace it)"), "\(again.stderr)")
        let apart = try await SpliceTool.run(["export", "edit.json", "--hls", "a", "--dash", "b"], in: scratch.url)
        #expect(apart.status == 2)
        #expect(apart.stderr.contains("give the same DIR to both"), "\(apart.stderr)")
        let odd = try await SpliceTool.run(["export", "edit.json", "--hls", "odd", "--ladder", "361p:1M"], in: scratch.url)
        #expect(odd.status == 2)
        #expect(odd.stderr.contains("height 361 is not a positive even number of pixels"), "\(odd.stderr)")
        let garbled = try await SpliceTool.run(["export", "edit.json", "--hls", "odd", "--ladder", "720p"], in: scratch.url)
        #expect(garbled.status == 2)
        let lone = try await SpliceTool.run(["export", "edit.json", "-o", "x.mp4", "--ladder", "720p:3M"], in: scratch.url)
        #expect(lone.status == 2)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("odd").path))
    }
}
