import Capture
import Composition
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Ten real minutes of `splice record` from the virtual devices with a flash and a beep every second, run as a
/// child process (its memory is the recorder's alone, and the test holds no thread while it waits: the other suites
/// run beside it). The same run streams live (`--stream rtmp://…`) to nginx's RTMP module, which records what it
/// receives (`record all;`): the movie and the server's copy of the stream are both checked. Not opt-in: CI runs it,
/// and it adds about 10 minutes of wall time spent mostly asleep. Without nginx and its RTMP module the recording is
/// still checked, and the stream's part is the one skip line.
///
/// What is measured, and how finely:
/// - **Sync drift**: each flash's time is its picture's presentation time in the file (on the 1/30 s frame grid,
///   exact to the stream's time base); each beep's time is the first sample above 0.4 (1/48 000 s = 20.8 µs, and
///   the same point of each beep, which starts at the same phase every second). Their difference has a constant
///   part (where the grid and the beep's threshold crossing fall); comparing the last marker's offset with the
///   first's cancels it, so "< 1 ms" is measured to about two samples (≈ 42 µs, AAC's rounding included).
/// - **The stream's sync drift**: the same markers in the server's FLV file, whose timestamps are whole
///   milliseconds (the pictures' times are rounded to 1 ms, so the drift is measured to about 1 ms); the stream must
///   have gone out whole (no reconnection, nothing dropped), so that the sound's sample count is its time.
/// - **Memory**: the child's resident set (`VmRSS` in `/proc/PID/status`) every ~10 s; the median of the last
///   minute may exceed the median of the second minute (the first is start-up) by at most 8 MiB.
@Suite("Long recording (10 minutes, virtual devices)")
struct LongRecordingTests {
    /// One reading of the recorder's resident memory, `time` seconds after it started.
    struct MemorySample: Sendable {
        var time: Double
        var bytes: Int64
    }

    static let minutes = 10
    static let allowedGrowth: Int64 = 8 << 20

    @Test("10 min with a marker every second, recorded and streamed to nginx: last A/V offset within 1 ms of the first in the movie, within 2 ms in the server's copy of the stream; resident memory flat")
    func tenMinutes() async throws {
        let scratch = try ScratchDirectory("capture-long")
        defer { scratch.remove() }
        let url = scratch.file("long.mp4")
        let log = scratch.file("record.txt")
        let seconds = Self.minutes * 60
        let received = scratch.file("received")
        let server = RTMPServer.startOrSkip("RTMP streaming", in: scratch, recordingInto: received)
        defer { server?.stop() }
        let stream = try server.map { ["--stream", try $0.url("long").absoluteString] } ?? []
        let process = try ChildProcess(
            executable: try SpliceExecutable.url().path,
            arguments: ["record", "--video", "virtual:camera-markers", "--audio", "virtual:microphone-markers",
                        "--max-duration", "\(seconds)s", "-o", url.path] + stream,
            standardOutput: log, standardError: log)
        defer { process.stop() }

        // The devices are paced to real time; a loaded machine may encode late, so the bound is generous.
        let started = Date()
        let deadline = started.addingTimeInterval(Double(seconds) + 600)
        // Memory is sampled from a plain thread: a task polling beside the whole parallel suite can sleep through
        // minutes of the recording, leaving gaps where the samples must be.
        let samples = Locked<[MemorySample]>([])
        let samplerEnded = Locked(false)
        let sampler = Thread {
            defer { samplerEnded.withLock { $0 = true } }
            var nextSample = started
            while process.isRunning, Date() < deadline {
                if Date() >= nextSample, let bytes = Self.residentBytes(of: process.pid) {
                    samples.withLock { $0.append(MemorySample(time: Date().timeIntervalSince(started), bytes: bytes)) }
                    nextSample = nextSample.addingTimeInterval(10)
                }
                usleep(250_000)
            }
        }
        sampler.start()
        // The sampler ends when the recorder exits (or at the deadline): its last sample is then taken.
        _ = await whenCondition(timeout: deadline.timeIntervalSinceNow + 5, { samplerEnded.withLock { $0 } }) { true }
        let rss = samples.withLock { $0 }
        let output = TextFile.text(of: log)
        try #require(!process.isRunning, "splice record did not finish \(seconds) s within \(seconds + 600) s; log tail: \(output.suffix(600))")
        #expect(process.exitCode == 0, "log tail: \(output.suffix(600))")

        // Memory: second minute against last minute.
        let end = rss.last?.time ?? 0
        let second = Self.median(rss.filter { $0.time >= 60 && $0.time < 120 }.map(\.bytes))
        let last = Self.median(rss.filter { $0.time >= end - 60 }.map(\.bytes))
        print("long recording: resident memory median \(Self.mebibytes(second)) MiB in minute 2, \(Self.mebibytes(last)) MiB in the last minute (\(rss.count) samples, \(Int(Date().timeIntervalSince(started))) s wall)")
        #expect(rss.count >= seconds / 10 - 2, "only \(rss.count) memory samples")
        #expect(second > 0 && last - second <= Self.allowedGrowth,
                "RSS grew from \(Self.mebibytes(second)) to \(Self.mebibytes(last)) MiB; samples: \(rss.map { "\(Int($0.time))s \(Self.mebibytes($0.bytes))" })")

        // Sync: every marker pair, and the drift from the first to the last.
        let decoding = Date()
        let movie = try decodeMovie(url, lumaStride: 32, keepsLastPicture: false, threads: 2)
        #expect(movie.frames.count == seconds * 30)
        #expect(abs(movie.samples.count - seconds * 48_000) <= 1024, "sound: \(movie.samples.count) samples")
        let flashes = movie.flashTimes(), beeps = movie.beepTimes()
        print("long recording: the file decoded and its markers found in \(Int(Date().timeIntervalSince(decoding))) s")
        #expect(flashes.count >= seconds - 1 && flashes.count <= seconds, "\(flashes.count) flashes")
        let offsets = Self.offsets(flashes: flashes, beeps: beeps, in: "the movie")
        let first = try #require(offsets.first), final = try #require(offsets.last)
        let spread = (offsets.max() ?? 0) - (offsets.min() ?? 0)
        print(String(format: "long recording: %d markers, A/V offset first %.6f s, last %.6f s, drift %.1f µs, spread %.1f µs (resolution: 1 sample = 20.8 µs)",
                     offsets.count, first, final, (final - first) * 1e6, spread * 1e6))
        #expect(offsets.count >= seconds - 1)
        #expect(abs(final - first) < 0.001, "offset drifted \((final - first) * 1e6) µs")
        #expect(offsets.allSatisfy { abs($0) <= 1.0 / 30 }, "an offset beyond one frame: \(offsets.filter { abs($0) > 1.0 / 30 })")

        // The stream, as the server received it: sent whole, and the same markers in sync without drift.
        guard server != nil else { return }
        #expect(output.contains("streaming to rtmp://") && !output.contains("reconnecting") && !output.contains("not sent"),
                "the stream did not go out whole: \(output.split(separator: "\n").filter { $0.contains("rtmp") }.prefix(10))")
        let copy = received.appendingPathComponent("long.flv")
        await LiveStreamTests.waitForServerRecording(copy)
        let streamed = try decodeMovie(copy, lumaStride: 32, keepsLastPicture: false, threads: 2)
        // The stream may end with a picture past its last sound (its encoders stop one after the other when the
        // command ends): a flash after the last beep has no sound to pair with and is not a marker of the stream.
        let streamBeeps = streamed.beepTimes()
        let lastBeep = streamBeeps.max() ?? 0
        let streamFlashes = streamed.flashTimes().filter { $0 <= lastBeep + 0.5 }
        let streamOffsets = Self.offsets(flashes: streamFlashes, beeps: streamBeeps, in: "the stream")
        let streamFirst = try #require(streamOffsets.first), streamFinal = try #require(streamOffsets.last)
        print(String(format: "long recording: the stream as nginx recorded it: %d pictures, %d markers, A/V offset first %.6f s, last %.6f s, drift %.1f µs (FLV: 1 ms timestamps)",
                     streamed.frames.count, streamOffsets.count, streamFirst, streamFinal, (streamFinal - streamFirst) * 1e6))
        // The stream starts at the recording's first key frame after it connected (key frames every 2 s) and may run a
        // moment past the movie's end (encoding alone until the command stops it).
        #expect(streamed.frames.count >= (seconds - 4) * 30 && streamed.frames.count <= (seconds + 1) * 30, "\(streamed.frames.count) pictures")
        #expect(streamOffsets.count >= seconds - 4)
        #expect(abs(streamFinal - streamFirst) < 0.002, "stream offset drifted \((streamFinal - streamFirst) * 1e6) µs")
    }

    /// Each flash's offset from the nearest beep (flash − beep, s); a flash without a beep within 0.5 s is an issue
    /// naming `what` was decoded.
    static func offsets(flashes: [Double], beeps: [Double], in what: String) -> [Double] {
        flashes.compactMap { flash in
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }), abs(beep - flash) < 0.5 else {
                Issue.record("\(what): no beep near the flash at \(flash) s")
                return nil
            }
            return flash - beep
        }
    }

    /// The resident set of process `pid`, bytes (`VmRSS` of `/proc/PID/status`); nil once it is gone.
    static func residentBytes(of pid: pid_t) -> Int64? {
        guard let status = try? TextFile.read(URL(fileURLWithPath: "/proc/\(pid)/status")),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int64($0) }) else { return nil }
        return kilobytes * 1024
    }

    static func median(_ values: [Int64]) -> Int64 {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func mebibytes(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
