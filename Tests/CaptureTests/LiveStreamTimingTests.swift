import Capture
import Composition
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Live streaming against time: the latency from capture to what a reader gets from nginx, and a server that stops
/// reading without closing its connection (stopped with SIGSTOP), which the write timeout turns into reconnection.
@Suite("Capture live streaming: latency and stalls", .serialized)
struct LiveStreamTimingTests {
    @Test("RTMP latency: ffmpeg, waiting on nginx before the stream starts, gets each picture of the last 2 s within 2 s of when streaming was asked for plus its stream time (printed)")
    func rtmpLatency() async throws {
        guard LiveStreamTests.readersAvailable("RTMP latency"), let ffmpeg = Executable.find("ffmpeg") else { return }
        let scratch = try ScratchDirectory("capture-rtmp-latency")
        defer { scratch.remove() }
        let port = LiveStreamTests.freePort()
        guard let server = LiveStreamTests.rtmpServerOrSkip(port: port, in: scratch) else { return }
        defer { server.stop() }
        let output = CaptureLiveStreamOutput()
        output.keyFrameInterval = MediaTime(seconds: 1)
        let session = try LiveStreamTests.markerSession([output])
        session.startRunning()
        defer { session.stopRunning() }
        try await LiveStreamTests.waitForConnections(output)
        let url = try #require(URL(string: "rtmp://127.0.0.1:\(port)/live/latency"))
        // The reader plays the stream before it is published (nginx holds it until then), and stamps every picture
        // twice: its stream time, then the wall clock (RTCTIME, µs) when the picture left the decoder.
        let log = scratch.file("reader.log")
        let reader = try ChildProcess(executable: ffmpeg, arguments: [
            "-nostdin", "-v", "info", "-fflags", "nobuffer", "-probesize", "1000000", "-analyzeduration", "1000000",
            "-rw_timeout", "20000000", "-i", url.absoluteString, "-an",
            "-vf", "showinfo,settb=1/1000000,setpts=RTCTIME,showinfo", "-frames:v", "150", "-f", "null", "-"],
            standardOutput: log, standardError: log)
        defer { reader.stop() }
        try await Task.sleep(nanoseconds: 1_000_000_000)
        let asked = Date().timeIntervalSince1970
        let events = try output.startStreaming(to: url)
        #expect(await reader.wait(seconds: 60), "the reader did not get 150 pictures")
        output.stopStreaming()
        for await _ in events {}
        // n → stream time (first showinfo), n → wall clock (second).
        var streamTime: [Int: Double] = [:], wallClock: [Int: Double] = [:]
        for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") where line.contains("pts_time:") {
            let fields = line.split(separator: " ").filter { !$0.isEmpty }
            guard let nIndex = fields.firstIndex(of: "n:"), nIndex + 1 < fields.count, let n = Int(fields[nIndex + 1]) else { continue }
            if line.contains("Parsed_showinfo_0") {
                streamTime[n] = fields.first { $0.hasPrefix("pts_time:") }.flatMap { Double($0.dropFirst("pts_time:".count)) }
            } else if line.contains("Parsed_showinfo_3") {
                // The wall clock as an exact count of µs (pts_time would print it with 6 digits).
                let pts = fields.firstIndex { $0.hasPrefix("pts:") }.flatMap { index -> Int64? in
                    let glued = fields[index].dropFirst("pts:".count)
                    return Int64(glued.isEmpty && index + 1 < fields.count ? fields[index + 1] : glued)
                }
                wallClock[n] = pts.map { Double($0) / 1_000_000 }
            }
        }
        let latencies = streamTime.keys.sorted().compactMap { n -> Double? in
            guard n >= 90, let t = streamTime[n], let wall = wallClock[n] else { return nil }
            return wall - (asked + t)
        }
        let sorted = latencies.sorted()
        print("RTMP latency, capture to the server's output: \(sorted.count) pictures, min \(sorted.first ?? -1) s, median \(sorted.isEmpty ? -1 : sorted[sorted.count / 2]) s, max \(sorted.last ?? -1) s")
        #expect(sorted.count >= 55, "\(streamTime.count) stream times, \(wallClock.count) wall clocks: \(((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(1500))")
        #expect((sorted.last ?? 99) <= 2.0)
        // An upper bound on each picture's latency (it was taken after streaming was asked for, but for the frame
        // in hand then): none can be more than a frame early.
        #expect((sorted.first ?? -1) >= -1.0 / 30)
    }

    @Test("nginx stopped (SIGSTOP) with the connection open: the 1 s write timeout makes the full socket a reconnecting event within seconds, not a hang; continued, it streams again; the recording beside it goes on")
    func stalledServer() async throws {
        guard LiveStreamTests.readersAvailable("RTMP stalls") else { return }
        let scratch = try ScratchDirectory("capture-rtmp-stall")
        defer { scratch.remove() }
        let port = LiveStreamTests.freePort()
        guard let server = LiveStreamTests.rtmpServerOrSkip(port: port, in: scratch) else { return }
        defer {
            kill(server.process.pid, SIGCONT)
            server.stop()
        }
        let output = CaptureLiveStreamOutput()
        // 20 Mb/s fills the loopback socket's buffers in seconds once nobody reads.
        output.videoBitRate = 20_000_000
        output.writeTimeout = MediaTime(seconds: 1)
        let movie = CaptureMovieFileOutput()
        let session = try LiveStreamTests.markerSession([output, movie])
        session.startRunning()
        defer { session.stopRunning() }
        try await LiveStreamTests.waitForConnections(output)
        let recording = movie.startRecording(to: scratch.file("beside.mp4"))
        let url = try #require(URL(string: "rtmp://127.0.0.1:\(port)/live/stall"))
        let log = try await LiveStreamTests.startStreaming(output, to: url)
        try await Task.sleep(nanoseconds: 1_000_000_000)
        kill(server.process.pid, SIGSTOP)
        let stopped = Date()
        let events = await log.wait(for: 3, within: 60)
        let reported = Date().timeIntervalSince(stopped)
        kill(server.process.pid, SIGCONT)
        print("stalled server: \(events.last.map { "\($0)" } ?? "nothing") \(reported) s after SIGSTOP")
        try #require(events.count >= 3, "\(events)")
        #expect(events[2] == .reconnecting(url, attempt: 1))
        #expect(reported < 30)
        let back = await log.wait(for: 4, within: 30)
        #expect(back.count >= 4 && back[3] == .streaming(url), "\(back)")
        let during = movie.recordedDuration
        try await Task.sleep(nanoseconds: 1_000_000_000)
        output.stopStreaming()
        let finished = try await LiveStreamTests.stopRecording(movie, recording)
        print("stalled server: the recording beside it \(finished.recordedDuration.seconds) s, \(finished.droppedFrameCount) pictures dropped")
        #expect(finished.error == nil)
        // The recording ran through the stall (its thread was held at most the write timeout: the virtual camera's
        // pictures then come late, none is lost).
        #expect(finished.recordedDuration > during && finished.recordedDuration.seconds >= reported)
        #expect(finished.droppedFrameCount == 0)
    }
}
