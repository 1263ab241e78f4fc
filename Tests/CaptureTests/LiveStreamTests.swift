import Capture
import Composition
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Live streaming from the marker devices (a flash and a beep every second) to real servers started here in user
/// space and stopped by PID: nginx with its RTMP module, an `ffmpeg` SRT listener, and live HLS in a folder. The
/// `ffmpeg`/`ffprobe` CLI reads every stream back.
@Suite("Capture live streaming", .serialized)
struct LiveStreamTests {
    /// True when the `ffmpeg` and `ffprobe` CLI that read the streams back are on PATH; otherwise the one skip line.
    static func readersAvailable(_ suite: String) -> Bool {
        guard Executable.find("ffmpeg") != nil, Executable.find("ffprobe") != nil else {
            UserSpaceService.reportSkip(suite, UserSpaceService.Unavailable(reason: "ffmpeg or ffprobe is not on PATH"))
            return false
        }
        return true
    }

    /// A session of the marker devices (a flash and a beep every second) feeding `outputs`.
    static func markerSession(_ outputs: [any CaptureOutput]) throws -> CaptureSession {
        let session = CaptureSession()
        session.addInput(try CaptureDeviceInput(device: .virtualCamera()))
        session.addInput(try CaptureDeviceInput(device: .virtualMicrophone()))
        for output in outputs { session.addOutput(output) }
        return session
    }

    /// Waits (bounded) for the session's connections, so streaming can be asked for.
    static func waitForConnections(_ output: CaptureOutput) async throws {
        let ready = await whenCondition(timeout: 60, { !output.connections.isEmpty }) { true }
        try #require(ready == true, "the session made no connections")
    }

    /// The marker session (``markerSession(_:)``) running while `body` runs, stopped after it; `body` starts once the
    /// first of `outputs` has its connections (streaming can be asked for then).
    /// - Throws: what `body` throws; a failed `#require` when no connections came within 60 s.
    static func withMarkerSession(_ outputs: [any CaptureOutput], _ body: (CaptureSession) async throws -> Void) async throws {
        let session = try markerSession(outputs)
        session.startRunning()
        defer { session.stopRunning() }
        if let first = outputs.first { try await waitForConnections(first) }
        try await body(session)
    }

    /// The RTMP prelude (``withRTMPServer(_:scratch:readers:recording:_:)``) with the marker session feeding `outputs`
    /// (``withMarkerSession(_:_:)``) while `body` runs.
    static func withStreamingSession(_ suite: String, scratch label: String, readers: Bool = true, outputs: [any CaptureOutput],
                                     _ body: (RTMPServer, ScratchDirectory, CaptureSession) async throws -> Void) async throws {
        try await withRTMPServer(suite, scratch: label, readers: readers) { server, scratch in
            try await withMarkerSession(outputs) { session in try await body(server, scratch, session) }
        }
    }

    /// A stream's events as they come, collected by a task of their own.
    final class EventLog: Sendable {
        let events = Locked<[CaptureLiveStreamOutput.Event]>([])
        let ended = Locked(false)

        init(_ stream: AsyncStream<CaptureLiveStreamOutput.Event>) {
            Task { [events, ended] in
                for await event in stream { events.withLock { $0.append(event) } }
                ended.withLock { $0 = true }
            }
        }

        /// The events once one after the first `index` satisfies `matches` (or the stream ended), waiting at most
        /// `seconds`.
        func wait(forOneAfter index: Int, within seconds: Double,
                  matching matches: @escaping @Sendable (CaptureLiveStreamOutput.Event) -> Bool) async -> [CaptureLiveStreamOutput.Event] {
            _ = await whenCondition(timeout: seconds, { [events, ended] in
                events.withLock { $0.dropFirst(index).contains(where: matches) } || ended.withLock { $0 }
            }) { true }
            return events.withLock { $0 }
        }

        /// The events once there are at least `count` (or the stream ended), waiting at most `seconds`.
        func wait(for count: Int, within seconds: Double) async -> [CaptureLiveStreamOutput.Event] {
            _ = await whenCondition(timeout: seconds, { [events, ended] in
                events.withLock { $0.count } >= count || ended.withLock { $0 }
            }) { true }
            return events.withLock { $0 }
        }
    }

    /// Starts streaming `output` to `url` and waits (bounded) until the server took the stream.
    static func startStreaming(_ output: CaptureLiveStreamOutput, to url: URL) async throws -> EventLog {
        let log = EventLog(try output.startStreaming(to: url))
        let opened = await log.wait(for: 2, within: 60)
        try #require(opened == [.connecting(url), .streaming(url)], "\(opened)")
        return log
    }

    /// Stops `movie`'s recording and returns how it ended.
    static func stopRecording(_ movie: CaptureMovieFileOutput, _ recording: AsyncStream<CaptureRecordingEvent>) async throws -> CaptureRecordingResult {
        movie.stopRecording()
        var result: CaptureRecordingResult?
        for await event in recording { if case .finished(let finished) = event { result = finished } }
        return try #require(result)
    }

    /// Runs `tool` with `arguments` to its end (at most `seconds`) and returns its standard output; it must exit with 0.
    static func run(_ tool: String, _ arguments: [String], seconds: Double = 90) async throws -> String {
        try await Executable.output(of: tool, arguments, timeout: seconds)
    }

    /// Reads `seconds` of the live stream at `url` back from the server with `ffmpeg` (stream copy) into `copy`.
    static func readBack(_ url: URL, seconds: Int, into copy: URL, in scratch: ScratchDirectory) async throws {
        _ = try await run("ffmpeg", ["-nostdin", "-v", "error", "-rw_timeout", "20000000", "-i", url.absoluteString,
                                     "-t", "\(seconds)", "-c", "copy", copy.path])
    }

    /// Waits (at most `seconds`) until nginx has finished its recording `file` of a stream (its size no longer grows).
    static func waitForServerRecording(_ file: URL, seconds: Double = 30) async {
        let size = Locked<Int64>(-1)
        _ = await whenCondition(timeout: seconds, {
            let now = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? -1
            return size.withLock { last in
                defer { last = now }
                return now > 0 && now == last
            }
        }) { true }
    }

    /// Checks a stream file read back from a server: H.264 640×480 and AAC 48 kHz, at least `seconds` of 30 fps
    /// pictures without a gap (a reader joining a live stream starts at a key frame), and every flash with its beep
    /// within a frame, both placed by their stream's own timestamps.
    static func expectMarkerStream(_ url: URL, seconds: Double) async throws {
        let probe = try await run("ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                              "stream=codec_name,width,height,sample_rate,start_time,nb_read_frames",
                                              "-of", "csv=p=0", url.path])
        let lines = probe.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let video = try #require(lines.first { $0.first == "h264" }, "no H.264 stream: \(probe)")
        let audio = try #require(lines.first { $0.first == "aac" }, "no AAC stream: \(probe)")
        #expect(video.count == 5 && video[1] == "640" && video[2] == "480", "video \(video)")
        #expect(audio.count == 4 && audio[1] == "48000", "audio \(audio)")
        let frames = Int(video.last ?? "") ?? 0
        let audioStart = try #require(Double(audio[2]), "audio start \(audio)")
        let movie = try decodeMovie(url, lumaStride: 8, keepsLastPicture: false)
        #expect(movie.frames.count == frames, "ffprobe counted \(frames) pictures, Splice decoded \(movie.frames.count)")
        let (first, last) = (movie.frames.first?.time ?? 0, movie.frames.last?.time ?? 0)
        #expect(frames >= Int(seconds * 30) - 3 && frames == Int(((last - first) * 30).rounded()) + 1,
                "\(frames) pictures from \(first) s to \(last) s")
        let flashes = movie.flashTimes(), beeps = movie.beepTimes().map { $0 + audioStart }
        #expect(flashes.count >= Int(seconds) - 1, "flashes \(flashes)")
        for flash in flashes {
            let sinceFirst = flash - (flashes.first ?? flash)
            #expect(abs(sinceFirst - sinceFirst.rounded()) < 0.002, "flash at \(flash) s")
            let offset = beeps.map { $0 - flash }.min { abs($0) < abs($1) } ?? 99
            #expect(abs(offset) <= 1.0 / 30, "flash at \(flash) s: nearest beep \(offset) s away; beeps \(beeps)")
        }
        print("stream \(url.lastPathComponent): \(frames) pictures from \(first) s, A/V offsets "
              + "\(flashes.map { flash in beeps.map { $0 - flash }.min { abs($0) < abs($1) } ?? 99 })")
    }

    @Test("RTMP into nginx: ffmpeg reads 5 s back from the server (joining at a key frame, 1 s apart) — ≥ 117 pictures of 640×480 H.264 without a gap, 48 kHz AAC, every flash with its beep")
    func rtmpIntoNginx() async throws {
        let output = CaptureLiveStreamOutput()
        output.keyFrameInterval = MediaTime(seconds: 1)
        try await Self.withStreamingSession("RTMP streaming", scratch: "capture-rtmp", outputs: [output]) { server, scratch, _ in
            let url = try server.url("splice")
            let log = try await Self.startStreaming(output, to: url)
            let copy = scratch.file("from-server.flv")
            try await Self.readBack(url, seconds: 5, into: copy, in: scratch)
            output.stopStreaming()
            let last = await log.wait(for: 3, within: 60).last
            guard case .finished(let finished, let duration) = last else {
                Issue.record("the stream ended with \(String(describing: last))")
                return
            }
            #expect(finished == url && duration >= MediaTime(seconds: 4))
            try await Self.expectMarkerStream(copy, seconds: 4)
        }
    }

    @Test("a recording and an RTMP stream share one encode: the stream, asked for 1.4 s into the recording (off its 1 s key-frame grid), read back from nginx is the recording's own video packets byte for byte from a key frame on; the recording has the stream's key frames, every 30th picture")
    func sharedEncode() async throws {
        let output = CaptureLiveStreamOutput()
        output.keyFrameInterval = MediaTime(seconds: 1)
        let movie = CaptureMovieFileOutput()
        try await Self.withStreamingSession("RTMP streaming", scratch: "capture-rtmp-shared", outputs: [output, movie]) { server, scratch, _ in
            let recording = movie.startRecording(to: scratch.file("shared.mp4"))
            let started = await whenCondition(timeout: 60, { movie.recordedDuration >= MediaTime(value: 1_400, timescale: 1_000) }) { true }
            try #require(started == true, "the recording did not reach 1.4 s")
            let url = try server.url("shared")
            let log = try await Self.startStreaming(output, to: url)
            let copy = scratch.file("from-server.flv")
            try await Self.readBack(url, seconds: 3, into: copy, in: scratch)
            output.stopStreaming()
            let last = await log.wait(for: 3, within: 60).last
            guard case .finished = last else {
                Issue.record("the stream ended with \(String(describing: last))")
                return
            }
            let finished = try await Self.stopRecording(movie, recording)
            #expect(finished.error == nil)
            let recorded = try videoPackets(scratch.file("shared.mp4"))
            let streamed = try videoPackets(copy)
            // The recording follows the stream's constraints: a key frame every 30 pictures (1 s at 30 fps), no other.
            let keys = recorded.indices.filter { recorded[$0].isKeyFrame }
            #expect(!keys.isEmpty && keys == Array(stride(from: 0, to: recorded.count, by: 30)), "recording key frames at \(keys)")
            // From its first key frame on, every streamed packet is the recording's next one, byte for byte.
            var index: [[UInt8]: Int] = [:]
            for (position, packet) in recorded.enumerated() { index[packet.payload] = index[packet.payload] ?? position }
            let fromKey = Array(streamed.drop { !$0.isKeyFrame })
            let start = try #require(fromKey.first.flatMap { index[$0.payload] }, "the stream's first key frame is none of the recording's")
            let matching = zip(fromKey, recorded[start...]).prefix { $0.0.payload == $0.1.payload }.count
            print("shared encode: \(recorded.count) pictures recorded, \(streamed.count) streamed; the stream's first key frame is the recording's picture \(start); \(matching) of \(fromKey.count) identical in a row")
            #expect(start % 30 == 0 && start >= 30, "joined at picture \(start)")
            #expect(fromKey.count >= 60 && matching == fromKey.count, "\(matching) of \(fromKey.count) streamed packets match the recording's")
        }
    }

    @Test("the RTMP server killed mid-stream, no reconnection: connectionLost within seconds, the session runs on, the recording beside it completes")
    func lostServer() async throws {
        let output = CaptureLiveStreamOutput()
        output.maximumReconnectAttempts = 0
        let movie = CaptureMovieFileOutput()
        try await Self.withStreamingSession("RTMP streaming", scratch: "capture-rtmp-lost", readers: false,
                                            outputs: [output, movie]) { server, scratch, session in
            let recording = movie.startRecording(to: scratch.file("beside.mp4"))
            let url = try server.url("lost")
            let log = try await Self.startStreaming(output, to: url)
            try await Task.sleep(nanoseconds: 1_500_000_000)
            server.process.send(SIGKILL)
            let killed = Date()
            let last = await log.wait(for: 3, within: 30).last
            guard case .failed(.connectionLost(let destination, let reason)) = last else {
                Issue.record("after the server was killed: \(String(describing: last))")
                return
            }
            print("lost server: reported after \(Date().timeIntervalSince(killed)) s: \(reason)")
            #expect(destination == url.absoluteString)
            #expect(session.isRunning && !output.isStreaming)
            // The recording beside the stream goes on: half a second more and 2 s in all, then a clean end. Waited for
            // by the recorded duration, not the clock: on a loaded machine the pictures reach the recording late.
            let before = movie.recordedDuration
            let wanted = max(before + MediaTime(value: 1, timescale: 2), MediaTime(seconds: 2))
            _ = await whenCondition(timeout: 60, { movie.recordedDuration >= wanted }) { true }
            let finished = try await Self.stopRecording(movie, recording)
            #expect(finished.error == nil)
            #expect(finished.recordedDuration > before && finished.recordedDuration >= MediaTime(seconds: 2),
                    "recorded \(finished.recordedDuration.seconds) s")
        }
    }

    @Test("the RTMP server killed for 3 s: reconnecting events, streaming again, ffmpeg reads 3 s back in sync; the recording beside it is complete")
    func serverBack() async throws {
        let output = CaptureLiveStreamOutput()
        output.keyFrameInterval = MediaTime(seconds: 1)
        let movie = CaptureMovieFileOutput()
        try await Self.withStreamingSession("RTMP streaming", scratch: "capture-rtmp-back", outputs: [output, movie]) { server, scratch, _ in
            let recording = movie.startRecording(to: scratch.file("beside.mp4"))
            let url = try server.url("back")
            let log = try await Self.startStreaming(output, to: url)
            try await Task.sleep(nanoseconds: 1_500_000_000)
            server.process.send(SIGKILL)
            _ = server.process.waitBlocking(seconds: 5)
            try await Task.sleep(nanoseconds: 3_000_000_000)
            do { try server.restart() } catch {
                Issue.record("nginx did not start again: \(error)")
                return
            }
            // Back: the events say reconnecting (one attempt or more) and streaming again.
            let back = await whenCondition(timeout: 60, { log.events.withLock { $0.count } >= 4 && log.events.withLock { $0.last } == .streaming(url) }) { true }
            let events = log.events.withLock { $0 }
            print("server back: events \(events)")
            try #require(back == true, "\(events)")
            #expect(events[2] == .reconnecting(url, attempt: 1))
            #expect(events.dropFirst(2).dropLast().allSatisfy { if case .reconnecting = $0 { true } else { false } })
            let copy = scratch.file("after-reconnection.flv")
            try await Self.readBack(url, seconds: 4, into: copy, in: scratch)
            output.stopStreaming()
            let last = await log.wait(for: events.count + 1, within: 60).last
            guard case .finished(_, let duration) = last else {
                Issue.record("the stream ended with \(String(describing: last))")
                return
            }
            #expect(duration >= MediaTime(seconds: 5), "sent \(duration.seconds) s")
            try await Self.expectMarkerStream(copy, seconds: 3)
            let finished = try await Self.stopRecording(movie, recording)
            #expect(finished.error == nil)
            // The recording went on through the outage: every picture on the grid, flashes with their beeps.
            let recorded = try decodeMovie(scratch.file("beside.mp4"), lumaStride: 8, keepsLastPicture: false)
            let frames = Int((finished.recordedDuration.seconds * 30).rounded())
            #expect(recorded.frames.count == frames && frames >= 9 * 30, "\(recorded.frames.count) pictures, \(frames) expected")
            let beeps = recorded.beepTimes()
            for flash in recorded.flashTimes() where !beeps.contains(where: { abs($0 - flash) <= 1.0 / 30 }) {
                Issue.record("recording: no beep within a frame of the flash at \(flash) s")
            }
        }
    }

    @Test("refused at once: an http:// or .mp4 destination; a port nobody listens on fails with connectionFailed within 5 s")
    func refusedDestinations() async throws {
        let output = CaptureLiveStreamOutput()
        let http = try #require(URL(string: "http://127.0.0.1/live.flv"))
        #expect(throws: CaptureLiveStreamError.unsupportedDestination("http://127.0.0.1/live.flv")) {
            try output.startStreaming(to: http)
        }
        #expect(throws: CaptureLiveStreamError.unsupportedDestination("/tmp/out.mp4")) {
            try output.startStreaming(to: URL(fileURLWithPath: "/tmp/out.mp4"))
        }
        let rtmp = try #require(URL(string: "rtmp://127.0.0.1:\(LoopbackPort.free())/live/nobody"))
        #expect(throws: CaptureLiveStreamError.notReady(rtmp.absoluteString)) { try output.startStreaming(to: rtmp) }
        try await Self.withMarkerSession([output]) { _ in
            let asked = Date()
            let log = EventLog(try output.startStreaming(to: rtmp))
            let seen = await log.wait(for: 2, within: 60)
            #expect(seen.first == .connecting(rtmp))
            guard seen.count == 2, case .failed(.connectionFailed(let destination, let reason)) = seen[1] else {
                Issue.record("expected connecting, connectionFailed; got \(seen)")
                return
            }
            #expect(destination == rtmp.absoluteString)
            #expect(Date().timeIntervalSince(asked) < 6, "failed after \(Date().timeIntervalSince(asked)) s: \(reason)")
            #expect(await log.wait(for: 3, within: 10).count == 2 && log.ended.withLock { $0 })
            #expect(!output.isStreaming)
        }
    }

    @Test("SRT to an ffmpeg listener: 3 s read back as MPEG-TS, ≥ 87 pictures without a gap, every flash with its beep")
    func srtToListener() async throws {
        let scratch = try ScratchDirectory("capture-srt")
        defer { scratch.remove() }
        guard Self.readersAvailable("SRT streaming"), let ffmpeg = Executable.find("ffmpeg") else { return }
        let port = LoopbackPort.free()
        let copy = scratch.file("from-listener.ts")
        let listener = try ChildProcess(
            executable: ffmpeg,
            arguments: ["-nostdin", "-v", "error", "-i", "srt://127.0.0.1:\(port)?mode=listener", "-t", "3", "-c", "copy", copy.path],
            standardOutput: scratch.file("listener.log"), standardError: scratch.file("listener.log"))
        defer { listener.stop() }
        try await Task.sleep(nanoseconds: 500_000_000)  // the listener binds its UDP port
        let output = CaptureLiveStreamOutput()
        output.keyFrameInterval = MediaTime(seconds: 1)
        try await Self.withMarkerSession([output]) { _ in
            let url = try #require(URL(string: "srt://127.0.0.1:\(port)"))
            let log = EventLog(try output.startStreaming(to: url))
            let opened = await log.wait(for: 2, within: 60)
            try #require(opened == [.connecting(url), .streaming(url)], "\(opened); listener: \(TextFile.text(of: scratch.file("listener.log")))")
            let ended = await listener.wait(seconds: 90)
            #expect(ended && listener.exitCode == 0, "\(TextFile.text(of: scratch.file("listener.log")))")
            output.stopStreaming()
            _ = await log.wait(for: 3, within: 60)
            try await Self.expectMarkerStream(copy, seconds: 3)
        }
    }

    @Test("live HLS: a sliding playlist of 3 one-second fMP4 segments, older ones deleted, read with m3u8 while written; after the end ffmpeg reads the listed segments back in sync",
          .enabled(if: PythonVerifier.isAvailable))
    func liveHLS() async throws {
        guard Self.readersAvailable("Live HLS") else { return }
        let scratch = try ScratchDirectory("capture-hls")
        defer { scratch.remove() }
        let folder = scratch.file("live")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let playlist = folder.appendingPathComponent("live.m3u8")
        let output = CaptureLiveStreamOutput()
        output.keyFrameInterval = MediaTime(seconds: 1)
        output.segmentDuration = MediaTime(seconds: 1)
        output.playlistLength = 3
        try await Self.withMarkerSession([output]) { _ in
            let log = try await Self.startStreaming(output, to: playlist)
            // While it is written: the window has slid (media sequence ≥ 3: six segments made, three listed).
            let slid = await whenCondition(timeout: 90, {
                let text = TextFile.text(of: playlist)
                return text.contains("#EXT-X-MEDIA-SEQUENCE:") && !text.contains("#EXT-X-MEDIA-SEQUENCE:0")
                    && !text.contains("#EXT-X-MEDIA-SEQUENCE:1\n") && !text.contains("#EXT-X-MEDIA-SEQUENCE:2\n")
            }) { true }
            try #require(slid == true, "the playlist did not slide: \((try? TextFile.read(playlist)) ?? "none")")
            let live = try await PythonVerifier.run("""
                import m3u8, sys, os
                p = m3u8.load(sys.argv[1])
                folder = os.path.dirname(sys.argv[1])
                print(p.media_sequence, len(p.segments), p.target_duration, p.is_endlist,
                      p.segment_map[0].uri if p.segment_map else "-",
                      " ".join("%.3f" % s.duration for s in p.segments),
                      all(os.path.exists(os.path.join(folder, s.uri)) for s in p.segments),
                      os.path.exists(os.path.join(folder, "live0.m4s")))
                """, [playlist.path])
            let fields = live.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
            print("live HLS while written: \(live)")
            #expect(fields.count == 10, "\(live)")
            if fields.count == 10 {
                #expect((Int(fields[0]) ?? 0) >= 3 && fields[1] == "3" && fields[2] == "1" && fields[3] == "False", "\(live)")
                #expect(fields[4] == "init.mp4", "\(live)")
                for duration in fields[5...7] { #expect(abs((Double(duration) ?? 0) - 1) < 0.01, "segment of \(duration) s") }
                #expect(fields[8] == "True" && fields[9] == "False", "listed segments present, the first deleted: \(live)")
            }
            output.stopStreaming()
            let last = await log.wait(for: 3, within: 60).last
            guard case .finished = last else {
                Issue.record("the stream ended with \(String(describing: last))")
                return
            }
            let ended = try TextFile.read(playlist)
            #expect(ended.contains("#EXT-X-ENDLIST"))
            let copy = scratch.file("from-playlist.mp4")
            _ = try await Self.run("ffmpeg", ["-nostdin", "-v", "error", "-i", playlist.path, "-c", "copy", copy.path])
            try await Self.expectMarkerStream(copy, seconds: 2)
        }
    }
}
