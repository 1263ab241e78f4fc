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

    @Test func aDocumentAsksForItsPackage() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        _ = try scratch.write("edit.json", """
            { "version": 1, "clips": [ { "source": "clipA.mp4", "duration": "2s" } ],
              "export": { "package": { "dash": "show", "ladder": "180p:200k", "segmentDuration": "1s" } } }
            """)
        let run = try await SpliceTool.run(["export", "edit.json"], in: scratch.url, timeout: 240)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("180p-200k: 320x180, 2 segments"), "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.file("show").path).sorted()
        #expect(files == ["180p-200k", "audio-128k", "manifest.mpd"], "DASH only, as the document asks")
        let frames = try await MediaTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                         "stream=nb_read_frames,width,height", "-of", "csv=p=0",
                                                         scratch.file("show/manifest.mpd").path])
        #expect(frames.output.split(separator: "\n").first == "320,180,60", "\(frames.output)")

        // The command line wins: its folder, formats and ladder; -o writes one file instead.
        let hls = try await SpliceTool.run(["export", "edit.json", "--hls", "other", "--ladder", "144p:150k"], in: scratch.url, timeout: 240)
        #expect(hls.status == 0, "\(hls.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("other").path).sorted()
                == ["144p-150k", "audio-128k", "master.m3u8"])
        let again = try await SpliceTool.run(["export", "edit.json"], in: scratch.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("show already exists (use --overwrite to replace it)"), "\(again.stderr)")

        // A bad package is a problem at its place, for validate as for export; nothing is written.
        _ = try scratch.write("bad.json", """
            { "version": 1, "clips": [ { "source": "clipA.mp4", "duration": "2s" } ],
              "export": { "package": { "hls": "bad", "ladder": "361p:1M" } } }
            """)
        for command in ["validate", "export"] {
            let refused = try await SpliceTool.run([command, "bad.json"], in: scratch.url)
            #expect(refused.status == 1, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("bad.json:2:52: export.package.ladder: rendition 0 of the ladder: height 361 is not a positive even number of pixels"),
                    "\(command): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("bad").path))
    }
}
