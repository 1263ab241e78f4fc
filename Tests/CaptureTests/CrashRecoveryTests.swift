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
    @Test("a recording killed with SIGKILL after 5 of its 1 s fragments keeps ≥ 4 s of sound and picture in sync from 0")
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
        try await expectStartsAtZero(url, flashes: flashes, in: scratch)

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

/// What the `ffprobe` and `ffmpeg` CLI read in a recording a crash left (a second reader): the `moov` carries edit
/// lists made from the first packets, so the pictures lie on the frame grid from 0, the AAC encoder's 1024 priming
/// samples lie before 0 (audio `start_time` −0.021333), and each beep starts within 1 ms of its flash (`flashes`,
/// s): the virtual devices put both at the same session instants, and the beep's sine reaches the 0.4 threshold 4
/// samples (0.08 ms) in. A file whose streams the muxer moved 1024 samples later instead plays the first flash
/// 21.4 ms before its beep and the later pictures off the grid.
private func expectStartsAtZero(_ url: URL, flashes: [Double], in scratch: ScratchDirectory) async throws {
    guard Executable.required("ffprobe") != nil, Executable.required("ffmpeg") != nil else { return }
    let pictures = try await Executable.output(of: "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                               "packet=pts_time", "-of", "csv=p=0", url.path])
    let times = pictures.split(separator: "\n").compactMap { Double($0) }
    #expect(times.first == 0 && times.count >= 120, "\(times.count) pictures from \(times.first ?? -1) s")
    let offGrid = times.first { abs($0 * 30 - ($0 * 30).rounded()) > 0.003 }
    #expect(offGrid == nil, "a picture off the 1/30 s grid at \(offGrid ?? 0) s")
    let start = try await Executable.output(of: "ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                            "stream=start_time", "-of", "csv=p=0", url.path])
    #expect(start.trimmingCharacters(in: .whitespacesAndNewlines) == "-0.021333", "audio start_time \(start)")
    let raw = scratch.file("sound.f32")
    _ = try await Executable.output(of: "ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "f32le",
                                                   "-c:a", "pcm_f32le", raw.path])
    let interleaved = try BinaryFile.read(raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    var sound = DecodedMovie()
    sound.samples = stride(from: 0, to: interleaved.count - 1, by: 2).map { interleaved[$0] }
    sound.sampleRate = 48_000
    // The decoded sound begins with the priming, at the stream's start time.
    let beeps = sound.beepTimes().map { $0 + (Double(start.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) }
    // The last complete fragment may end between a flash and its beep (the sound encoder lags a frame behind).
    #expect(beeps.count >= 4 && abs(beeps.count - flashes.count) <= 1, "beeps \(beeps), flashes \(flashes)")
    for (flash, beep) in zip(flashes, beeps) {
        #expect(beep >= flash && beep - flash <= 0.001, "flash at \(flash) s, beep at \(beep) s (ffmpeg)")
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
