import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `splice export --fragment-interval`: killed with SIGKILL mid-way, the export leaves its output under its own name,
/// playable up to its last complete fragment; `splice repair` cuts a torn last fragment off it. A bad interval in
/// the document is reported by `splice validate` at its JSON path.
@Suite("Fragmented export after kill -9")
struct FragmentedExportKillTests {
    @Test func aKilledFragmentedExportPlaysUpToItsLastFragment() async throws {
        guard let ffprobe = Executable.required("ffprobe") else { return }
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        // 7.5 s at 30 fps, encoded slowly enough to be killed after a few 0.5 s fragments.
        try WorkFolderKillTests.writeSlowEdit(in: scratch)
        let output = scratch.file("out.mp4")
        let arguments = ["export", "edit.json", "-o", "out.mp4", "--fragment-interval", "0.5s", "--progress", "none"]
        let started = try SpliceTool.start(arguments, in: scratch.url)
        let killed = await started.send(SIGKILL, timeout: 120) { _ in
            ((try? MovieFragmentScan(url: output))?.fragments.count ?? 0) >= 3
        }
        #expect(killed, "fewer than 3 fragments were written before the export ended: \(started.stderrSoFar)")
        _ = try await SpliceTool.finish(started, arguments: arguments, timeout: 30)
        #expect(started.process.terminationSignal == SIGKILL)

        // What the kill left: the output itself, a moov and its complete fragments of 15 pictures each (a key
        // frame every 0.5 s), every one of which ffprobe reads.
        let scan = try MovieFragmentScan(url: output)
        #expect(Array(scan.topLevel.prefix(2)) == ["ftyp", "moov"], "\(scan.topLevel)")
        let pictures = scan.durations(ofTrack: 1).count
        #expect(scan.fragments.count >= 3 && pictures == 15 * scan.fragments.count, "\(scan.fragments.count) fragments, \(pictures) pictures")
        #expect(scan.fragments.allSatisfy { $0.filter { $0.trackID == 1 }.allSatisfy(\.startsWithSyncSample) })
        let read = try await Executable.output(of: ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0",
            output.path,
        ])
        #expect(Int(read.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 >= pictures } == true, "ffprobe read \(read)")

        // A torn last fragment (the file cut inside its media data): repair keeps the fragments before it.
        let data = try BinaryFile.read(output)
        let fragments = scan.fragments.count
        let lastVideo = scan.fragments.last?.filter { $0.trackID == 1 }.reduce(0) { $0 + $1.durations.count } ?? 0
        try data.prefix(data.count - 200).write(to: output)
        #expect(try MovieFragmentScan(url: output).isTorn)
        let repair = try await SpliceTool.run(["repair", "out.mp4"], in: scratch.url, timeout: 60)
        #expect(repair.status == 0, "\(repair.stderr)")
        let repaired = try MovieFragmentScan(url: output)
        #expect(!repaired.isTorn && repaired.fragments.count == fragments - 1, "\(repair.stdout)")
        let kept = try await Executable.output(of: ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0",
            output.path,
        ])
        #expect(kept.trimmingCharacters(in: .whitespacesAndNewlines) == "\(pictures - lastVideo)")
        let decode = try await Executable.run("ffmpeg", ["-nostdin", "-v", "error", "-i", output.path, "-f", "null", "-"])
        #expect(decode.succeeded && decode.errors.isEmpty, "\(decode.errors)")
    }

    /// `splice join --fragment-interval 1s`: two parts of 45 pictures, each one group of pictures (the parts were
    /// encoded with the default 2 s key frame interval), joined into one fragment per part: the fragments begin on
    /// the parts' key frames, the first at least 1 s after the last.
    @Test func joinWritesAFragmentedMovie() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [320, 180], "clips": [ { "source": "clipA.mp4", "duration": "3s" } ],
              "export": { "settings": { "video": { "encoderPreset": "ultrafast" } } } }
            """)
        for arguments in [["plan", "edit.json", "--segments", "2", "-o", "plan.json"],
                          ["render-segment", "plan.json", "--index", "0"], ["render-segment", "plan.json", "--index", "1"],
                          ["join", "plan.json", "-o", "out.mp4", "--fragment-interval", "1s"]] {
            let run = try await SpliceTool.run(arguments, in: scratch.url)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        let scan = try MovieFragmentScan(url: scratch.file("out.mp4"))
        let runs = scan.fragments.map { $0.filter { $0.trackID == 1 } }
        #expect(runs.map { $0.map(\.durations.count) } == [[45], [45]], "\(runs)")
        #expect(runs.allSatisfy { $0.allSatisfy(\.startsWithSyncSample) })
        #expect(scan.durations(ofTrack: 2).reduce(0) { $0 + Int($1) } - Int(scan.editStart[2] ?? 0) == 144_000)
    }

    @Test func validateReportsABadIntervalAtItsPath() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", """
            { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
              "export": { "movieFragmentInterval": "0s" } }
            """)
        let zero = try await SpliceTool.run(["validate", "edit.json", "-o", "out.mp4"], in: scratch.url)
        #expect(zero.status != 0)
        #expect(zero.stderr.contains("edit.json:2:40: export.movieFragmentInterval: unsupported export settings: "
                                     + "movieFragmentInterval 0.000 s (0/1) must be a positive time"), "\(zero.stdout)\(zero.stderr)")
        // A subtitle track: FFmpeg's fragmented movie would lose its cues' durations.
        try scratch.write("captions.srt", "1\n00:00:00,200 --> 00:00:00,700\nNarrator\n")
        try scratch.write("subtitled.json", """
            { "version": 1, "clips": [ { "source": "clipA.mp4" } ], "subtitles": [ { "source": "captions.srt" } ],
              "export": { "movieFragmentInterval": "2s" } }
            """)
        let subtitled = try await SpliceTool.run(["validate", "subtitled.json", "-o", "out.mp4"], in: scratch.url)
        #expect(subtitled.stderr.contains("subtitled.json:2:40: export.movieFragmentInterval: unsupported export settings: "
                                          + "movieFragmentInterval 2.000 s cannot be combined with subtitle track 3, written as "
                                          + "a text track"), "\(subtitled.stderr)")
        try scratch.write("plain.json", #"{ "version": 1, "clips": [ { "source": "clipA.mp4" } ] }"#)
        let mkv = try await SpliceTool.run(["export", "plain.json", "-o", "out.mkv", "--fragment-interval", "2s"], in: scratch.url)
        #expect(mkv.stderr.contains("movieFragmentInterval 2.000 s: a .mkv file cannot be written as a fragmented movie; "
                                    + "only .mp4 and .mov can"), "\(mkv.stderr)")
        let usage = try await SpliceTool.run(["export", "plain.json", "-o", "out.mp4", "--fragment-interval", "-1s"], in: scratch.url)
        #expect(usage.stderr.contains("--fragment-interval takes a time above 0 (e.g. 2s), not '-1s'"), "\(usage.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.mp4").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.mkv").path))
    }

    /// A refused interval (or segment count) is named where it came from: the command line option when it was
    /// given there (not the document's `export`, which did not set it), the document's line and path when the
    /// document set it.
    @Test func aRefusalNamesTheOptionOrTheDocumentTheValueCameFrom() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("plain.json", """
            { "version": 1,
              "clips": [ { "source": "clipA.mp4" } ],
              "export": { "fileLengthLimit": 1000000 } }
            """)
        try scratch.write("fragmented.json", """
            { "version": 1,
              "clips": [ { "source": "clipA.mp4" } ],
              "export": { "movieFragmentInterval": "2s" } }
            """)
        try scratch.write("segmented.json", """
            { "version": 1,
              "clips": [ { "source": "clipA.mp4" } ],
              "export": { "concurrentSegments": 2, "fileLengthLimit": 1000000 } }
            """)
        let mkv = "movieFragmentInterval 2.000 s: a .mkv file cannot be written as a fragmented movie; only .mp4 and .mov can"
        let flag = try await SpliceTool.run(["export", "plain.json", "-o", "out.mkv", "--fragment-interval", "2s"], in: scratch.url)
        #expect(flag.status == 1)
        #expect(flag.stderr == "splice: cannot export plain.json: --fragment-interval 2s: unsupported export settings: \(mkv)\n",
                "\(flag.stderr)")
        // The option's value over the document's: still the option's.
        let over = try await SpliceTool.run(["export", "fragmented.json", "-o", "out.mkv", "--fragment-interval", "1s"], in: scratch.url)
        #expect(over.stderr.hasPrefix("splice: cannot export fragmented.json: --fragment-interval 1s: unsupported export settings: "
                                      + "movieFragmentInterval 1.000 s: a .mkv file"), "\(over.stderr)")
        let document = try await SpliceTool.run(["export", "fragmented.json", "-o", "out.mkv"], in: scratch.url)
        #expect(document.status == 1)
        #expect(document.stderr == "fragmented.json:3:40: export.movieFragmentInterval: unsupported export settings: \(mkv)\n"
                + "splice: cannot export fragmented.json\n", "\(document.stderr)")

        let conflict = "concurrentSegments 2 cannot be combined with fileLengthLimit; set one of them only"
        let segments = try await SpliceTool.run(["export", "plain.json", "-o", "out.mp4", "--segments", "2"], in: scratch.url)
        #expect(segments.stderr == "splice: cannot export plain.json: --segments 2: unsupported export settings: \(conflict)\n",
                "\(segments.stderr)")
        let documentSegments = try await SpliceTool.run(["export", "segmented.json", "-o", "out.mp4"], in: scratch.url)
        #expect(documentSegments.stderr == "segmented.json:3:37: export.concurrentSegments: unsupported export settings: \(conflict)\n"
                + "splice: cannot export segmented.json\n", "\(documentSegments.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.mp4").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.mkv").path))
    }
}
