import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `splice batch` jobs that write adaptive-bitrate packages (`hls`/`dash`), instead of or beside a file: a bad one
/// fails alone, colliding folders are refused before anything runs, a rerun skips complete packages and redoes
/// incomplete ones, and a killed batch leaves no half package.
@Suite struct BatchPackageTests {
    /// The ladder and segments of the package jobs: one 144p rendition of the 2 s red clip (320x240), 1 s segments.
    static let small = #""ladder": "144p:150k", "segmentDuration": "1s""#

    /// `out`'s entries, hidden ones included.
    static func entries(_ scratch: ScratchDirectory, _ folder: String = "out") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.file(folder).path).sorted()
    }

    /// ffprobe's decoded picture count and size of the first video stream of `playlist` (an HLS or DASH manifest).
    static func pictures(_ playlist: URL) async throws -> String {
        let run = try await MediaTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                      "stream=nb_read_frames,width,height", "-of", "csv=p=0", playlist.path])
        return String(run.output.split(separator: "\n").first ?? "")
    }

    @Test func fourJobsOneBadPackageThreeDoneAndARerunSkipsOrRedoes() async throws {
        let scratch = try BatchCommandTests.folder()
        defer { scratch.remove() }
        // Line 1's ladder and segment duration come from its document's export.package (the line names the folder).
        _ = try scratch.write("packaged.json", #"{ "version": 1, "clips": [ { "source": "red.mkv" } ], "export": { "package": { "dash": "elsewhere", \#(Self.small) } } }"#)
        let jobs = [
            #"{"document": "packaged.json", "hls": "out/p1"}"#,
            #"{"document": "good.json", "output": "out/2.mp4", "dash": "out/p2", \#(Self.small)}"#,
            #"{"document": "missing-source.json", "hls": "out/p3", \#(Self.small)}"#,   // 3: a source that does not exist
            #"{"document": "good.json", "hls": "out/p4", "dash": "out/p4", \#(Self.small)}"#,
        ]
        _ = try scratch.write("jobs.jsonl", jobs.joined(separator: "\n"))
        let run = try await SpliceTool.run(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url, timeout: 300)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("4 jobs: 3 completed, 0 skipped, 1 failed, 0 cancelled"), "\(run.stderr)")
        let results = try BatchCommandTests.results(run.stdout)
        for line in [1, 2, 4] {
            #expect(results[line]?["status"] as? String == "completed", "line \(line): \(results[line] ?? [:])")
            #expect(results[line]?["duration"] as? Double == 2, "line \(line)")
            #expect((results[line]?["package"] as? String)?.hasSuffix("/out/p\(line)") == true, "line \(line): \(results[line] ?? [:])")
        }
        #expect(results[3]?["status"] as? String == "failed")
        #expect((results[3]?["error"] as? String)?.contains("gone.mp4") == true, "\(results[3] ?? [:])")
        #expect(try Self.entries(scratch) == ["2.mp4", "p1", "p2", "p4"], "no hidden build folder, nothing of the bad job")
        #expect(try Self.entries(scratch, "out/p1") == ["144p-150k", "master.m3u8"])
        #expect(try Self.entries(scratch, "out/p2") == ["144p-150k", "manifest.mpd"])
        #expect(try Self.entries(scratch, "out/p4") == ["144p-150k", "manifest.mpd", "master.m3u8"])
        #expect(try Self.entries(scratch, "out/p1/144p-150k") == ["init.mp4", "playlist.m3u8", "segment0.m4s", "segment1.m4s"])
        #expect(try await BatchCommandTests.duration(of: scratch.file("out/2.mp4")) == 2)
        // 60 pictures of 192x144 (320x240 at 144 lines) through the HLS playlist and the DASH manifest.
        #expect(try await Self.pictures(scratch.file("out/p1/master.m3u8")) == "192,144,60")
        #expect(try await Self.pictures(scratch.file("out/p2/manifest.mpd")) == "192,144,60")
        if PythonVerifier.isAvailable {
            let parsed = try await PythonVerifier.run("""
                import os, sys, m3u8
                master = m3u8.load(sys.argv[1])
                variant = master.playlists[0]
                media = m3u8.load(os.path.join(os.path.dirname(sys.argv[1]), variant.uri))
                print(len(master.playlists), variant.uri, variant.stream_info.resolution,
                      ' '.join('%.6f' % s.duration for s in media.segments), media.is_endlist)
                """, [scratch.file("out/p4/master.m3u8").path])
            #expect(parsed == "1 144p-150k/playlist.m3u8 (192, 144) 1.000000 1.000000 True\n", "\(parsed)")
        }

        // A rerun skips every complete package and file; a package missing a manifest its job asks for is redone.
        try FileManager.default.removeItem(at: scratch.file("out/p4/manifest.mpd"))
        let rerun = try await SpliceTool.run(["batch", "jobs.jsonl", "--jobs", "2"], in: scratch.url, timeout: 300)
        #expect(rerun.stderr.contains("4 jobs: 1 completed, 2 skipped, 1 failed, 0 cancelled"), "\(rerun.stderr)")
        let again = try BatchCommandTests.results(rerun.stdout)
        #expect(again[1]?["status"] as? String == "skipped")
        #expect(again[2]?["status"] as? String == "skipped")
        // Skipped, each reports its duration: line 2 its file's, line 1 (a package only) its package's, read back
        // through its HLS playlist: two 1 s segments.
        #expect(again[1]?["duration"] as? Double == 2, "\(again[1] ?? [:])")
        #expect(again[2]?["duration"] as? Double == 2, "\(again[2] ?? [:])")
        #expect(again[4]?["status"] as? String == "completed", "\(again[4] ?? [:])")
        #expect(try Self.entries(scratch, "out/p4") == ["144p-150k", "manifest.mpd", "master.m3u8"])
        #expect(try Self.entries(scratch) == ["2.mp4", "p1", "p2", "p4"])
    }

    /// A folder whose manifest is there but does not read as a package (not written by Splice) is neither skipped
    /// nor overwritten: the job fails naming the manifest, and the folder is left as it was.
    @Test func aManifestThatDoesNotReadFailsTheSkippedJob() async throws {
        let scratch = try BatchCommandTests.folder()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.file("out/show"), withIntermediateDirectories: true)
        let manifest = try scratch.write("out/show/master.m3u8", "not a playlist\n")
        _ = try scratch.write("jobs.jsonl", #"{"document": "good.json", "hls": "out/show"}"#)
        let run = try await SpliceTool.run(["batch", "jobs.jsonl"], in: scratch.url, timeout: 120)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("1 job: 0 completed, 0 skipped, 1 failed, 0 cancelled"), "\(run.stderr)")
        let result = try BatchCommandTests.results(run.stdout)[1] ?? [:]
        #expect(result["status"] as? String == "failed")
        #expect((result["error"] as? String)?.hasPrefix("\(manifest.path) exists but does not read as a package") == true, "\(result)")
        #expect(result["duration"] == nil)
        #expect(try Self.entries(scratch, "out/show") == ["master.m3u8"])
        #expect(try BinaryFile.read(manifest) == Data("not a playlist\n".utf8))
    }

    @Test func packageFoldersNeverCollideWithOtherJobsOutputs() async throws {
        let scratch = try BatchCommandTests.folder()
        defer { scratch.remove() }
        let jobs = [
            #"{"document": "good.json", "hls": "out/show"}"#,
            #"{"document": "good.json", "dash": "out/./show"}"#,                  // 2: line 1's folder
            #"{"document": "good.json", "output": "out/show/extra.mp4"}"#,       // 3: inside lines 1 and 2's package
            #"{"document": "good.json", "output": "out/4.mp4"}"#,
            #"{"document": "good.json", "output": "out/5.mp4", "ladder": "144p:150k"}"#,   // 5: a ladder without a folder
            #"{"document": "good.json"}"#,                                       // 6: writes nothing
            #"{"document": "good.json", "hls": "out/p7", "dash": "out/p8"}"#,     // 7: two folders
            #"{"document": "good.json", "hls": "out/p9", "ladder": "361p:1M"}"#,  // 9: an odd height
        ]
        _ = try scratch.write("jobs.jsonl", jobs.enumerated().map { $0.offset == 7 ? "\n" + $0.element : $0.element }.joined(separator: "\n"))
        let run = try await SpliceTool.run(["batch", "jobs.jsonl"], in: scratch.url, timeout: 300)
        #expect(run.status == 1, "\(run.stderr)")
        let results = try BatchCommandTests.results(run.stdout)
        #expect(results.keys.sorted() == [1, 2, 3, 4, 5, 6, 7, 9])
        let folder = scratch.file("out/show").standardizedFileURL.path
        let expected = [
            1: "line 1 writes the same output as line 2 (\(folder)); line 1's package folder (\(folder)) holds the output of line 3: give every job its own output",
            2: "line 2 writes the same output as line 1 (\(folder)); line 2's package folder (\(folder)) holds the output of line 3: give every job its own output",
            3: "line 3 writes inside the package folder of lines 1, 2 (\(folder)): give every job its own output",
        ]
        for (line, message) in expected {
            #expect(results[line]?["error"] as? String == message, "line \(line): \(results[line] ?? [:])")
            #expect((results[line]?["place"] as? String)?.hasSuffix("jobs.jsonl:\(line)") == true)
        }
        let parseErrors = [
            5: ("'ladder' shapes a package: give \"hls\" or \"dash\" (its folder)", "jobs.jsonl:5:60 ladder"),
            6: ("a job writes a file (\"output\") or a package (\"hls\", \"dash\"), or both: give at least one", "jobs.jsonl:6:1"),
            7: ("\"hls\" and \"dash\" share one package folder (the same segments): give the same folder to both", "jobs.jsonl:7:52 dash"),
            9: ("rendition 0 of the ladder: height 361 is not a positive even number of pixels", "jobs.jsonl:9:54 ladder"),
        ]
        for (line, (message, place)) in parseErrors {
            #expect(results[line]?["error"] as? String == message, "line \(line): \(results[line] ?? [:])")
            #expect((results[line]?["place"] as? String)?.hasSuffix(place) == true, "line \(line): \(results[line] ?? [:])")
        }
        #expect(results[4]?["status"] as? String == "completed", "\(results[4] ?? [:])")
        #expect(try Self.entries(scratch) == ["4.mp4"])
    }

    /// A kill -9 while a package is being built leaves only its hidden build folder (nothing under the package's
    /// name); the rerun removes it and writes the package.
    @Test func aKilledPackageLeavesNoHalfPackageAndTheRerunRemovesItsBuildFolder() async throws {
        let scratch = try BatchCommandTests.folder()
        defer { scratch.remove() }
        _ = try scratch.write("jobs.jsonl", #"{"document": "clipA.json", "hls": "out/show", "ladder": "360p:800k,180p:200k", "segmentDuration": "1s"}"#)
        let started = try SpliceTool.start(["batch", "jobs.jsonl"], in: scratch.url)
        // Killed once the build folder holds a first segment.
        let killed = await started.send(SIGKILL) { _ in
            guard let build = (try? Self.entries(scratch))?.first(where: { $0.hasPrefix(".splice-package-") }) else { return false }
            return (try? FileManager.default.contentsOfDirectory(atPath: scratch.file("out/\(build)/360p-800k").path))?
                .contains("segment0.m4s") == true
        }
        #expect(killed, "no segment was ever built, or the batch ended before it was killed")
        _ = try await SpliceTool.finish(started, arguments: ["batch"], timeout: 30)
        let left = try Self.entries(scratch)
        #expect(left.count == 1 && left[0].hasPrefix(".splice-package-"), "only the build folder is left: \(left)")

        let rerun = try await SpliceTool.run(["batch", "jobs.jsonl"], in: scratch.url, timeout: 300)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try Self.entries(scratch) == ["show"], "the abandoned build folder is removed")
        #expect(try await Self.pictures(scratch.file("out/show/master.m3u8")) == "640,360,120")
    }
}
