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
///
/// Each measurement runs alone in a child process of this test binary (``ChildTest``): with every other suite running
/// in parallel, the test process's shared task pool can hold the session's consumers back for seconds, which would
/// measure the test run, not the stream.
@Suite("Capture live streaming: latency and stalls", .serialized)
struct LiveStreamTimingTests {
    static let role = "capture-timing"

    /// Runs the child test `name` of this suite alone and checks it passed and measured (no skip inside the child).
    static func runAlone(_ name: String) async throws {
        guard LiveStreamTests.readersAvailable("RTMP timing") else { return }
        guard RTMPServer.isInstalled else {
            UserSpaceService.reportSkip("RTMP timing", UserSpaceService.Unavailable(reason: "nginx with libnginx-mod-rtmp is not installed"))
            return
        }
        let result = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ChildTest.Result, any Error>) in
            Thread {
                continuation.resume(with: Result { try ChildTest.run(filter: "LiveStreamTimingTests/\(name)", role: role, timeout: 300) })
            }.start()
        }
        for line in result.output.split(separator: "\n") where line.hasPrefix("RTMP latency") || line.hasPrefix("stalled server") || line.hasPrefix("queued stream") {
            print(line)
        }
        #expect(result.status == 0 && !result.timedOut && result.reports["measured"] == name, "child: \(result.output.suffix(6000))")
    }

    @Test("RTMP latency: ffmpeg, waiting on nginx before the stream starts, gets the pictures of the last 2 s within 2 s (median) of the session handing them out (a video data output's arrival times; printed)")
    func rtmpLatency() async throws {
        try await Self.runAlone("rtmpLatencyAlone")
    }

    @Test("nginx stopped (SIGSTOP) with the connection open: the 1 s write timeout makes the full socket a reconnecting event within seconds, not a hang; continued, it streams again; the recording beside it goes on")
    func stalledServer() async throws {
        try await Self.runAlone("stalledServerAlone")
    }

    @Test("nginx stopped (SIGSTOP) for 3 s of recording, then continued, while recording beside a 50 Mb/s stream with 0.5 s of send queue: the session is never held (the recording grows through the stall, never standing still 2.5 s), whole groups of pictures dropped and reported, the movie has every picture with no gap in its timestamps, and the stream resumes (ffmpeg reads pictures from nginx afterwards)")
    func stalledServerQueue() async throws {
        try await Self.runAlone("stalledServerQueueAlone")
    }

    @Test(.enabled(if: ChildTest.is(role)))
    func rtmpLatencyAlone() async throws {
        let output = CaptureLiveStreamOutput()
        output.keyFrameInterval = MediaTime(seconds: 1)
        // The session's own pace: when each picture (by session time, µs) reached a video data output, wall clock.
        let data = CaptureVideoDataOutput()
        data.videoSettings = CaptureVideoSettings(pixelFormat: .bgra8, width: 64, height: 48)
        let frames = data.frames()
        let arrivals = Locked<[(session: Int64, wall: Double)]>([])
        let watcher = Task {
            for await frame in frames {
                let wall = Date().timeIntervalSince1970
                arrivals.withLock { $0.append((frame.presentationTime.convertScale(1_000_000).value, wall)) }
            }
        }
        defer { watcher.cancel() }
        try await LiveStreamTests.withStreamingSession("RTMP latency", scratch: "capture-rtmp-latency",
                                                       outputs: [output, data]) { server, scratch, _ in
            let ffmpeg = try #require(Executable.find("ffmpeg"))
            let url = try server.url("latency")
            // The reader plays the stream before it is published (nginx holds it until then), and stamps every picture
            // twice: its stream time, then the wall clock (µs) when the picture left the decoder.
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
            #expect(await reader.wait(seconds: 90), "the reader did not get 150 pictures")
            output.stopStreaming()
            for await _ in events {}
            // n → stream time (first showinfo), n → wall clock (second).
            var streamTime: [Int: Double] = [:], wallClock: [Int: Double] = [:]
            for line in try TextFile.read(log).split(separator: "\n") where line.contains("pts_time:") {
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
            // The stream's time 0 is the first picture the session handed out after streaming was asked for (within a
            // frame: the data output may see that picture a moment after the stream did).
            let seen = arrivals.withLock { $0 }
            let start = try #require(seen.first { $0.wall >= asked }?.session, "no picture after streaming was asked for")
            let latencies = streamTime.keys.sorted().compactMap { n -> Double? in
                guard n >= 90, let t = streamTime[n], let wall = wallClock[n] else { return nil }
                let session = start + Int64((t * 1_000_000).rounded())
                guard let handed = seen.min(by: { abs($0.session - session) < abs($1.session - session) }),
                      abs(handed.session - session) <= 34_000 else { return nil }
                return wall - handed.wall
            }
            let sorted = latencies.sorted()
            print("RTMP latency, session to the server's output: \(sorted.count) pictures, min \(sorted.first ?? -1) s, median \(sorted.isEmpty ? -1 : sorted[sorted.count / 2]) s, max \(sorted.last ?? -1) s (reader joined \(streamTime.count) pictures; stream asked for at \(asked))")
            #expect(sorted.count >= 40, """
                \(streamTime.count) stream times, \(wallClock.count) wall clocks, \(seen.count) pictures seen; the reader's \
                last lines: \((try? TextFile.read(log))?.split(separator: "\n").suffix(6).joined(separator: " | ") ?? "none")
                """)
            // The latency is the median picture's (a loaded machine delays single pictures; the maximum is printed).
            #expect(!sorted.isEmpty && sorted[sorted.count / 2] <= 2.0)
            // The picture cannot reach the reader before the session handed it out (a frame of slack for the start).
            #expect((sorted.first ?? -1) >= -1.0 / 30)
            ChildTest.report("measured", "rtmpLatencyAlone")
        }
    }

    @Test(.enabled(if: ChildTest.is(role)))
    func stalledServerAlone() async throws {
        let output = CaptureLiveStreamOutput()
        // 20 Mb/s fills the loopback socket's buffers in seconds once nobody reads.
        output.videoBitRate = 20_000_000
        output.writeTimeout = MediaTime(seconds: 1)
        let movie = CaptureMovieFileOutput()
        try await LiveStreamTests.withStreamingSession("RTMP stalls", scratch: "capture-rtmp-stall",
                                                       outputs: [output, movie]) { server, scratch, _ in
            let recording = movie.startRecording(to: scratch.file("beside.mp4"))
            let url = try server.url("stall")
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
            // Streaming again, after however many attempts the loaded machine needed (only reconnections between).
            let back = await log.wait(forOneAfter: 3, within: 30) { $0 == .streaming(url) }
            let resumed = back.dropFirst(3).firstIndex(of: .streaming(url))
            #expect(resumed != nil, "\(back)")
            if let resumed {
                #expect(back[3..<resumed].allSatisfy { if case .reconnecting(url, _) = $0 { true } else { false } }, "\(back)")
            }
            let during = movie.recordedDuration
            try await Task.sleep(nanoseconds: 1_000_000_000)
            output.stopStreaming()
            let finished = try await LiveStreamTests.stopRecording(movie, recording)
            print("stalled server: the recording beside it \(finished.recordedDuration.seconds) s, \(finished.droppedFrameCount) pictures dropped")
            #expect(finished.error == nil)
            // The recording ran on through the stall and after it (its thread was held at most the write timeout: the
            // virtual camera's pictures then come late, none is lost).
            #expect(finished.recordedDuration > during && finished.recordedDuration >= MediaTime(seconds: 2))
            #expect(finished.droppedFrameCount == 0)
            ChildTest.report("measured", "stalledServerAlone")
        }
    }

    /// Watches `movie`'s recording on a plain thread (the test's task pool may be held back on a loaded machine)
    /// until it has grown `target` seconds, or `limit` seconds of wall clock passed, looking every 10 ms.
    /// - Returns: how much it grew (movie seconds), in how long (wall seconds), and the longest wall time it did not
    ///   grow at all.
    static func watchRecording(_ movie: CaptureMovieFileOutput, growing target: Double, within limit: Double) async throws
        -> (grown: Double, seconds: Double, longestPause: Double) {
        try await WorkerThread.run(name: "recording-watch") {
            let start = Date(), before = movie.recordedDuration
            var last = before, lastChange = start, longestPause = 0.0
            while (last - before).seconds < target, Date().timeIntervalSince(start) < limit {
                usleep(10_000)
                let now = movie.recordedDuration
                if now != last {
                    longestPause = max(longestPause, Date().timeIntervalSince(lastChange))
                    last = now
                    lastChange = Date()
                }
            }
            longestPause = max(longestPause, Date().timeIntervalSince(lastChange))
            return ((last - before).seconds, Date().timeIntervalSince(start), longestPause)
        }
    }

    @Test(.enabled(if: ChildTest.is(role)))
    func stalledServerQueueAlone() async throws {
        let output = CaptureLiveStreamOutput()
        // 50 Mb/s (6 MB/s) fills the loopback socket's buffers (autotuned up to about 10 MB) within the stall once
        // nobody reads; the write timeout (5 s) outlasts the rest of the stall, so the writes wait it out on the
        // stream's thread.
        output.videoBitRate = 50_000_000
        output.keyFrameInterval = MediaTime(seconds: 1)
        // Half a second of queue: the stall overflows it, so whole groups of pictures are dropped and reported.
        output.sendQueueDuration = MediaTime(value: 1, timescale: 2)
        let movie = CaptureMovieFileOutput()
        try await LiveStreamTests.withStreamingSession("RTMP stalls", scratch: "capture-rtmp-queue",
                                                       outputs: [output, movie]) { server, scratch, _ in
            let recording = movie.startRecording(to: scratch.file("beside.mp4"))
            let url = try server.url("queue")
            let log = try await LiveStreamTests.startStreaming(output, to: url)
            _ = try await Self.watchRecording(movie, growing: 1, within: 60)
            kill(server.process.pid, SIGSTOP)
            // Stopped for 3 s of the recording's own time, not of the wall clock: the stream sends what the session
            // records, so 3 s of 50 Mb/s overflow the socket's buffers and the queue however fast this machine
            // records. A session held by the stream's waiting writes would stop recording from then until the write
            // timeout (5 s): the longest pause in the recording's growth tells.
            let stall = try await Self.watchRecording(movie, growing: 3, within: 60)
            kill(server.process.pid, SIGCONT)
            print("queued stream: the recording grew \(stall.grown) s during the \(stall.seconds) s stall, its longest "
                  + "pause \(stall.longestPause) s")
            #expect(stall.grown >= 3, "the recording grew \(stall.grown) s in the \(stall.seconds) s the server was stopped")
            #expect(stall.longestPause < 2.5, "the recording stood still for \(stall.longestPause) s while the server was stopped")
            // The stream resumes: a reader joining after the stall gets pictures from nginx. Counted in pictures, not
            // in stream time: the dropped groups leave a gap in the timestamps, which a duration limit would count.
            let copy = scratch.file("after-stall.flv")
            _ = try await LiveStreamTests.run("ffmpeg", ["-nostdin", "-v", "error", "-rw_timeout", "20000000", "-i", url.absoluteString,
                                                         "-frames:v", "30", "-c", "copy", copy.path])
            let resumed = try videoPackets(copy)
            output.stopStreaming()
            let events = await log.wait(for: 3, within: 60)
            let finished = try await LiveStreamTests.stopRecording(movie, recording)
            let stream = await log.wait(forOneAfter: 2, within: 60) { if case .finished = $0 { true } else if case .failed = $0 { true } else { false } }
            print("queued stream: events \(stream.dropFirst(2)); \(resumed.count) pictures read after the stall; the recording \(finished.recordedDuration.seconds) s")
            #expect(events.count >= 3)
            // Dropped: whole groups of pictures, up to a key frame (the count of pictures is the time they cover).
            let drops = stream.compactMap { event -> (Int, MediaTime)? in
                if case .dropped(_, let pictures, let duration) = event { (pictures, duration) } else { nil }
            }
            #expect(!drops.isEmpty && drops.allSatisfy { $0.0 >= 1 && abs($0.1.seconds * 30 - Double($0.0)) < 0.6 }, "drops \(drops)")
            #expect(resumed.count >= 15, "\(resumed.count) pictures read from nginx after the stall")
            guard case .finished? = stream.last else {
                Issue.record("the stream ended with \(String(describing: stream.last))")
                return
            }
            #expect(finished.error == nil && finished.droppedFrameCount == 0)
            // Every picture, on the grid without a gap.
            let decoded = try decodeMovie(scratch.file("beside.mp4"), lumaStride: 16, keepsLastPicture: false)
            let expected = Int((finished.recordedDuration.seconds * 30).rounded())
            // At least the 1 s before the stall and the 3 s of it.
            #expect(decoded.frames.count == expected && expected >= 4 * 30, "\(decoded.frames.count) pictures, \(expected) expected")
            let steps = zip(decoded.frames.dropFirst(), decoded.frames).map { $0.0.time - $0.1.time }
            #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.0005 }, "gaps: \(steps.enumerated().filter { abs($0.element - 1.0 / 30) >= 0.0005 }.prefix(5))")
            ChildTest.report("measured", "stalledServerQueueAlone")
        }
    }
}
