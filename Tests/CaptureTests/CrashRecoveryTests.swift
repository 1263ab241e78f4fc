import Capture
import Composition
import Export
import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `kill -9` of a `splice record` child mid-way: the file keeps every complete fragment, and a torn last fragment is
/// cut off by ``MovieFileRepair``.
@Suite("Crash-safe recording")
struct CrashRecoveryTests {
    @Test("a recording killed with SIGKILL after 5 of its 1 s fragments keeps ≥ 4 s of synchronised sound and picture")
    func killedRecordingPlays() async throws {
        let scratch = try ScratchDirectory("capture-crash")
        defer { scratch.remove() }
        let url = scratch.file("crash.mp4")
        let log = scratch.file("stderr.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try ChildProcess(
            executable: try SpliceExecutable.url().path,
            arguments: ["record", "--video", "virtual:camera-markers", "--audio", "virtual:microphone-markers",
                        "--fragment-interval", "1s", "-o", url.path],
            standardError: log)
        defer { process.stop() }
        // Killed once 5 fragments are on disk plus about half of the next (the virtual devices deliver in real time,
        // but a loaded machine can encode slower than that, so the wait follows the file, not the clock).
        // Watched from a plain thread (a task beside the whole parallel suite can resume seconds late); the kill then
        // lands about half a second into the sixth fragment.
        let killed = await whenCondition(timeout: 90, {
            ((try? topLevelBoxes(url)) ?? []).filter({ $0 == "moof" }).count >= 5 || !process.isRunning
        }) { () -> Int32 in
            usleep(500_000)
            return kill(process.pid, SIGKILL)
        }
        #expect(killed == 0, "killed once 5 fragments were on disk (nil: not within 90 s)")
        #expect(await process.wait(seconds: 10))
        #expect(process.terminationSignal == SIGKILL)

        let boxes = try topLevelBoxes(url)
        #expect(boxes.filter { $0 == "moof" }.count >= 4, "boxes: \(boxes)")
        let report = try MovieFileRepair.repair(at: url)
        #expect(report.completeFragments >= 4)

        // Splice's own loader opens it; the pictures and sound decode; every flash has its beep within a frame.
        let asset = try await Asset.load(from: url)
        #expect(asset.duration.seconds >= 4, "\(asset.duration.seconds) s")
        let movie = try decodeMovie(url)
        #expect(movie.frames.count >= 120, "\(movie.frames.count) frames")
        #expect(Double(movie.samples.count) / 48_000 >= 4)
        let flashes = movie.flashTimes(), beeps = movie.beepTimes()
        #expect(flashes.count >= 4 && beeps.count >= 4, "flashes \(flashes), beeps \(beeps)")
        for (flash, beep) in zip(flashes, beeps) {
            #expect(abs(flash - beep) <= 1.0 / 30, "flash at \(flash) s, beep at \(beep) s")
        }

        // A torn last fragment (the process died while writing it) is cut off, and the rest still plays.
        let torn = scratch.file("torn.mp4")
        try FileManager.default.copyItem(at: url, to: torn)
        let size = try FileManager.default.attributesOfItem(atPath: torn.path)[.size] as? Int64 ?? 0
        let handle = try FileHandle(forWritingTo: torn)
        try handle.truncate(atOffset: UInt64(size - 1000))
        try handle.close()
        let tornReport = try MovieFileRepair.repair(at: torn)
        #expect(tornReport.wasRepaired)
        #expect(tornReport.completeFragments == report.completeFragments - 1)
        let repaired = try decodeMovie(torn)
        #expect(repaired.frames.count > 0 && repaired.frames.count < movie.frames.count)
        #expect(try MovieFileRepair.repair(at: torn).wasRepaired == false)
    }
}

/// The built `splice` executable: `$SPLICE_EXECUTABLE`, else beside the test bundle, else `.build/debug/splice`.
enum SpliceExecutable {
    struct NotFound: Error, CustomStringConvertible {
        var places: [String]
        var description: String { "the splice executable was not found; looked at: \(places.joined(separator: ", "))" }
    }

    static func url() throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["SPLICE_EXECUTABLE"] { candidates.append(URL(fileURLWithPath: path)) }
        for argument in CommandLine.arguments where argument.hasSuffix(".xctest") {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().appendingPathComponent("splice"))
        }
        candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("splice"))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/splice"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotFound(places: candidates.map(\.path))
        }
        return found
    }
}
