import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `splice export --smart` and `--segments N` keep their intermediate files in a locked work folder beside the
/// output: killed with SIGKILL while the folder holds a piece, the process leaves the folder and no output; the next
/// such export into that folder removes it and writes the whole file.
@Suite("Work folders after kill -9")
struct WorkFolderKillTests {
    /// Entries of `folder` whose name starts with `prefix`.
    static func entries(of folder: URL, startingWith prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// True when a folder `prefix-*` in `folder` holds a file with data (a piece or part being written).
    static func holdsData(_ folder: URL, prefix: String) -> Bool {
        for name in entries(of: folder, startingWith: prefix + "-") {
            let work = folder.appendingPathComponent(name)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? [] {
                let size = (try? FileManager.default.attributesOfItem(atPath: work.appendingPathComponent(file).path)[.size] as? Int) ?? 0
                if size > 0 { return true }
            }
        }
        return false
    }

    /// clipA from 0.5 s, then clipB: 7.5 s, 225 frames, encoded with x264's slowest preset (slow enough for a kill
    /// to land mid-export), as `edit.json` in `scratch`.
    static func writeSlowEdit(in scratch: ScratchDirectory) throws {
        try scratch.write("edit.json", """
            { "version": 1,
              "clips": [ { "source": "clipA.mp4", "start": "0.5s", "duration": "3.5s" }, { "source": "clipB.mp4" } ],
              "export": { "settings": { "video": { "encoderPreset": "veryslow", "rateControl": { "constantQuality": 30 } } } } }
            """)
    }

    @Test(arguments: [
        (["--smart"], ".splice-smart"),
        (["--segments", "2"], ".splice-segments"),
    ])
    func aKilledExportsWorkFolderIsRemovedByTheNextOne(options: [String], prefix: String) async throws {
        guard let ffprobe = Executable.required("ffprobe") else { return }
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        // clipA from 0.5 s (its first half second re-encoded, the rest copied), then clipB: 7.5 s, 225 frames.
        // x264's slowest preset keeps the work folder at work long enough to be seen holding a piece.
        try Self.writeSlowEdit(in: scratch)
        let arguments = ["export", "edit.json", "-o", "out.mp4", "--progress", "none"] + options
        let started = try SpliceTool.start(arguments, in: scratch.url)
        let killed = await started.send(SIGKILL, timeout: 120) { _ in Self.holdsData(scratch.url, prefix: prefix) }
        #expect(killed, "no \(prefix) folder held data before the export ended: \(started.stderrSoFar)")
        _ = try await SpliceTool.finish(started, arguments: arguments, timeout: 30)
        #expect(started.process.terminationSignal == SIGKILL)
        // What the kill left: the work folder, and no output at all (never half a file).
        #expect(Self.entries(of: scratch.url, startingWith: prefix + "-").count == 1, "\(scratch.contents)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.mp4").path))

        let rerun = try await SpliceTool.run(arguments, in: scratch.url, timeout: 300)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(Self.entries(of: scratch.url, startingWith: ".splice").isEmpty, "left behind: \(scratch.contents)")
        let probed = try await Executable.output(of: ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets:format=duration",
            "-of", "csv=p=0", scratch.file("out.mp4").path,
        ])
        #expect(probed.split(separator: "\n") == ["225", "7.500000"], "\(probed)")
    }
}
