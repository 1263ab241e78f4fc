import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

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
        let master = try TextFile.read(scratch.file("show/master.m3u8"))
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
        let file = try await SpliceTool.run(["export", "edit.json", "-o", "one.mp4", "--progress", "none"], in: scratch.url, timeout: 240)
        #expect(file.status == 0, "-o writes one file instead: \(file.stderr)")
        let probed = try await MediaTool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                         scratch.file("one.mp4").path])
        #expect(probed.output == "2.000000\n", "\(probed.output)")
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

    @Test func aDocumentsSubtitlesArePackagedAsWebVTT() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        _ = try scratch.write("captions.srt", "1\n00:00:00,500 --> 00:00:01,500\nBonjour\n\n2\n00:00:01,700 --> 00:00:03,000\nÀ bientôt\n")
        _ = try scratch.write("edit.json", """
            { "version": 1, "clips": [ { "source": "clipA.mp4", "duration": "2s" } ],
              "subtitles": [ { "source": "captions.srt", "language": "fra" } ] }
            """)
        let run = try await SpliceTool.run(["export", "edit.json", "--hls", "show", "--dash", "show", "--ladder", "180p:200k",
                                            "--segment-duration", "1s"], in: scratch.url, timeout: 240)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains(": WebVTT, fr, 2 segments"), "\(run.stderr)")
        let master = try TextFile.read(scratch.file("show/master.m3u8"))
        let media = master.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }.map(String.init) ?? ""
        #expect(media.contains("LANGUAGE=\"fr\",NAME=\"French\",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO"), "\(master)")
        #expect(master.contains(",SUBTITLES=\"subtitles\"\n180p-200k/playlist.m3u8\n"), "\(master)")
        let uri = media.components(separatedBy: "URI=\"").last?.dropLast() ?? ""
        // The first cue lies across the 1 s boundary: in both segments, read twice. The second is cut at the edit's end.
        let packets = try await MediaTool.run("ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,duration_time",
                                                          "-of", "csv=p=0", scratch.file("show/\(uri)").path])
        #expect(packets.output == "0.500000,1.000000\n0.500000,1.000000\n1.700000,0.300000\n", "\(packets.output)")
    }

    @Test func packagingReportsProgressAsExportDoes() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        _ = try scratch.write("edit.json", #"{ "version": 1, "clips": [ { "source": "clipA.mp4", "duration": "2s" } ] }"#)
        let run = try await SpliceTool.run(["export", "edit.json", "--hls", "show", "--ladder", "144p:150k", "--segment-duration", "1s",
                                            "--progress", "json"], in: scratch.url, timeout: 240)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let folder = scratch.file("show").standardizedFileURL.path
        #expect(events.first?["event"] as? String == "started")
        #expect(events.first?["duration"] as? Double == 2)
        #expect(events.first?["output"] as? String == folder)
        #expect(events.last?["event"] as? String == "completed")
        #expect(events.last?["output"] as? String == folder)
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        let bytes = try files.reduce(Int64(0)) { total, name in
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { return total }
            return total + ((attributes[.size] as? NSNumber)?.int64Value ?? 0)
        }
        #expect(bytes > 10_000, "\(bytes)")
        #expect((events.last?["bytes"] as? NSNumber)?.int64Value == bytes, "the package's bytes")
        let progress = events.filter { $0["event"] as? String == "progress" }.compactMap { $0["progress"] as? Double }
        #expect(progress.last == 1, "\(progress)")
        #expect(progress == progress.sorted(), "monotonic")
        #expect(progress.allSatisfy { (0...1).contains($0) })
        #expect(!run.stderr.contains("144p-150k:"), "JSON mode prints the events only: \(run.stderr)")
    }

    @Test func ctrlCWhilePackagingLeavesNothing() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        _ = try scratch.write("edit.json", #"{ "version": 1, "clips": [ { "source": "clipA.mp4" }, { "source": "clipA.mp4" } ] }"#)
        let started = try SpliceTool.start(["export", "edit.json", "--hls", "show", "--ladder", "360p:800k,180p:200k",
                                            "--segment-duration", "1s", "--progress", "plain"], in: scratch.url)
        // Sent once the build folder holds a first video segment.
        let sent = await started.send(SIGINT) { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch.url.path)) ?? []
            guard let build = names.first(where: { $0.hasPrefix(".splice-package-") }) else { return false }
            return FileManager.default.fileExists(atPath: scratch.file("\(build)/360p-800k/segment0.m4s").path)
        }
        #expect(sent, "no segment was built, or the export ended before the signal")
        let run = try await SpliceTool.finish(started, arguments: ["export"], timeout: 60)
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("splice: packaging cancelled; nothing was written"), "\(run.stderr)")
        #expect(run.stderr.contains(/progress \d+%  elapsed/), "plain progress lines before the signal: \(run.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(!left.contains("show") && !left.contains { $0.hasPrefix(".splice-package-") }, "\(left)")
    }
}
