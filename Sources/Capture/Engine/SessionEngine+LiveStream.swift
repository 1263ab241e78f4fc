import Composition
import Dispatch
import Foundation
import SpliceFFmpeg

/// One live stream on the engine thread: its writer (the recording engine, writing to a network muxer) while
/// connected, what it needs to connect again, and its events.
final class LiveStream {
    let output: CaptureLiveStreamOutput
    let url: URL
    let settings: MovieWriterSettings
    let timeout: Double
    let maximumAttempts: Int
    let continuation: AsyncStream<CaptureLiveStreamOutput.Event>.Continuation
    /// The connected writer; nil while waiting to connect again.
    var writer: MovieWriter?
    /// The first write error of the current connection, which ends it after the current frame.
    var failure: (any Error)?
    /// Stream time sent over the connections before the current one, µs.
    var sentBefore: Int64 = 0
    /// The reconnection under way: the attempt (from 1), when to make it, and the last reason.
    var retry: (attempt: Int, at: Date, reason: String)?
    /// The write watchdog: when the write under way started (uptime, ns; nil between writes), the current
    /// connection's interrupt flag, and whether the watchdog interrupted it.
    private let watch = Locked<(writeStart: UInt64?, connection: CancellationFlag?, timedOut: Bool)>((nil, nil, false))
    private let watchdog: DispatchSourceTimer
    /// Seconds one write may wait before the connection is interrupted.
    let writeTimeout: Double

    init(output: CaptureLiveStreamOutput, url: URL, settings: MovieWriterSettings, timeout: Double, writeTimeout: Double,
         maximumAttempts: Int, continuation: AsyncStream<CaptureLiveStreamOutput.Event>.Continuation) {
        self.output = output
        self.url = url
        self.settings = settings
        self.timeout = timeout
        self.writeTimeout = writeTimeout
        self.maximumAttempts = maximumAttempts
        self.continuation = continuation
        // Checked 10 times a second: a write waiting longer than the timeout has its connection interrupted.
        watchdog = DispatchSource.makeTimerSource(queue: .global())
        let (watch, limit) = (watch, UInt64(writeTimeout * 1e9))
        watchdog.setEventHandler {
            let now = DispatchTime.now().uptimeNanoseconds
            watch.withLock { state in
                guard let start = state.writeStart, now > start + limit, !state.timedOut else { return }
                state.timedOut = true
                state.connection?.cancel()
            }
        }
        watchdog.schedule(deadline: .now() + 0.1, repeating: 0.1)
        watchdog.resume()
    }

    deinit { watchdog.cancel() }

    /// The write of a connection the watchdog interrupted.
    struct WriteTimedOut: Error {
        var seconds: Double
    }

    var name: String { CaptureLiveStreamOutput.name(of: url) }

    /// Stream time sent so far over every connection, µs.
    var sent: Int64 { sentBefore + (writer?.recordedDuration ?? 0) }

    /// Hands a picture or sound to the stream; a failed write is kept (``failure``), never thrown into the session.
    func append(_ frame: Frame, at time: Int64, isAudio: Bool) {
        guard let writer, failure == nil else { return }
        watch.withLock { $0.writeStart = DispatchTime.now().uptimeNanoseconds }
        defer { watch.withLock { $0.writeStart = nil } }
        do {
            if isAudio { try writer.appendAudio(frame, at: time) } else { try writer.appendVideo(frame, at: time) }
        } catch {
            failure = watch.withLock { $0.timedOut } ? WriteTimedOut(seconds: writeTimeout) : error
        }
    }

    /// Writes the current connection's trailer and closes it, under the write watchdog like every write.
    /// - Throws: what the writer's finish throws (``WriteTimedOut`` when the watchdog interrupted it).
    func finishWriter() throws {
        guard let writer else { return }
        watch.withLock { $0.writeStart = DispatchTime.now().uptimeNanoseconds }
        defer { watch.withLock { $0.writeStart = nil } }
        do { try writer.finish() } catch {
            throw watch.withLock { $0.timedOut } ? WriteTimedOut(seconds: writeTimeout) : error
        }
    }

    /// Makes `writer`, connected with `cancellation` as its interrupt flag, the current connection.
    func use(_ writer: MovieWriter, cancellation: CancellationFlag) {
        self.writer = writer
        watch.withLock { $0 = (nil, cancellation, false) }
    }

    /// Connects with a fresh writer starting at session time `now` µs and makes it the current connection
    /// (``writer``), interrupting the connection after ``timeout`` seconds.
    /// - Throws: ``CaptureLiveStreamError/connectionFailed(destination:reason:)``.
    func connect(now: Int64) throws(CaptureLiveStreamError) {
        var settings = settings
        let cancellation = CancellationFlag()
        settings.cancellation = cancellation
        let connecting = Locked(true)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if connecting.withLock({ $0 }) { cancellation.cancel() }
        }
        defer { connecting.withLock { $0 = false } }
        do {
            use(try MovieWriter(settings: settings, requestedStart: now), cancellation: cancellation)
        } catch {
            let reason = cancellation.isCancelled ? "no answer within \(String(format: "%g", timeout)) s"
                : Self.reason(of: error)
            throw .connectionFailed(destination: name, reason: reason)
        }
    }

    /// Closes the broken connection and plans the next attempt; false when no attempt is left.
    func scheduleRetry(reason: String) -> Bool {
        if let writer {
            sentBefore += writer.recordedDuration
            try? writer.finish()
        }
        writer = nil
        failure = nil
        let attempt = (retry?.attempt ?? 0) + 1
        guard attempt <= maximumAttempts else { return false }
        let wait = min(8, pow(2, Double(attempt - 1)))
        retry = (attempt, Date().addingTimeInterval(wait), reason)
        continuation.yield(.reconnecting(url, attempt: attempt))
        return true
    }

    /// The words of a writer's error (a recording error carries FFmpeg's reason).
    static func reason(of error: any Error) -> String {
        if case .writeFailed(_, let reason) = error as? CaptureRecordingError { return reason }
        if let error = error as? CaptureLiveStreamError, case .connectionFailed(_, let reason) = error { return reason }
        if let error = error as? WriteTimedOut {
            return "the server took nothing for \(String(format: "%g", error.seconds)) s (write timeout)"
        }
        return FailureReason.words(for: error)
    }
}

extension SessionEngine {
    /// Opens the stream an output asked for, reconnects a broken one when its wait is over, or ends one that was
    /// stopped or cannot be reconnected.
    func startOrStopStream(_ output: CaptureLiveStreamOutput, streams: inout [ObjectIdentifier: LiveStream], now: Int64) {
        let key = ObjectIdentifier(output)
        if let stream = streams[key] {
            if output.state.withLock({ $0.stopRequested }) {
                Self.end(stream, error: nil)
                streams[key] = nil
            } else if let failure = stream.failure {
                if !stream.scheduleRetry(reason: LiveStream.reason(of: failure)) {
                    Self.end(stream, error: .connectionLost(destination: stream.name, reason: LiveStream.reason(of: failure)))
                    streams[key] = nil
                }
            } else if stream.writer == nil, let retry = stream.retry, Date() >= retry.at {
                do {
                    try stream.connect(now: now)
                    stream.retry = nil
                    stream.continuation.yield(.streaming(stream.url))
                } catch {
                    let reason = LiveStream.reason(of: error)
                    if !stream.scheduleRetry(reason: reason) {
                        Self.end(stream, error: .connectionLost(destination: stream.name, reason: reason))
                        streams[key] = nil
                    }
                }
            }
            return
        }
        guard let (url, continuation) = output.state.withLock({ state -> (URL, AsyncStream<CaptureLiveStreamOutput.Event>.Continuation)? in
            defer { state.pendingStart = nil }
            if state.pendingStart != nil { state.isStreaming = true }
            return state.pendingStart
        }) else { return }
        continuation.yield(.connecting(url))
        let (settings, connections) = output.state.withLock { ($0.settings, $0.connections) }
        guard let destination = LiveStreamDestination(url) else {
            Self.fail(output, continuation, .unsupportedDestination(CaptureLiveStreamOutput.name(of: url)))
            return
        }
        let enabled = connections.filter(\.isEnabled)
        let video = enabled.first { $0.mediaType == .video }?.inputDevice.activeFormat
        let audioConnection = enabled.first { $0.mediaType == .audio }
        let frameRate = Int32(video?.maxFrameRate.rounded() ?? 30)
        let timeout = max(settings.connectionTimeout.seconds, 0.1)
        var muxerOptions: [String: String] = [:]
        var ioOptions: [String: String] = [:]
        switch destination.format {
        case "flv": muxerOptions = ["flvflags": "no_duration_filesize"]
        case "hls":
            muxerOptions = ["hls_time": String(format: "%.3f", max(settings.segmentDuration.seconds, 0.1)),
                            "hls_list_size": "\(settings.playlistLength)", "hls_segment_type": "fmp4",
                            "hls_flags": "delete_segments+independent_segments+temp_file"]
        default:
            // SRT: a peer that does not answer fails inside the timeout (ms) instead of libsrt's own 3 s.
            ioOptions = ["connect_timeout": "\(Int64(timeout * 1_000))"]
        }
        var writerSettings = MovieWriterSettings(
            url: url, video: video.map { ($0.width, $0.height, frameRate) },
            audioSampleRate: audioConnection?.inputDevice.activeFormat?.sampleRate,
            maxDuration: nil, maxFileSize: nil, minFreeDiskSpace: nil, fragmentInterval: Int64.max / 2,
            initialFragmentInterval: Int64.max / 2, audioChannels: audioConnection?.audioChannels ?? [])
        writerSettings.destination = .liveStream(
            format: destination.format, target: destination.target, ioOptions: ioOptions, muxerOptions: muxerOptions,
            videoBitRate: settings.videoBitRate, audioBitRate: settings.audioBitRate,
            keyFrameInterval: max(1, Int((settings.keyFrameInterval.seconds * Double(frameRate)).rounded())))
        let stream = LiveStream(output: output, url: url, settings: writerSettings, timeout: timeout,
                                writeTimeout: max(settings.writeTimeout.seconds, 0.1),
                                maximumAttempts: settings.maximumReconnectAttempts, continuation: continuation)
        do {
            try stream.connect(now: now)
            streams[key] = stream
            continuation.yield(.streaming(url))
        } catch {
            Self.fail(output, continuation, error)
        }
    }

    /// Ends `stream`: its trailer written, the last event sent.
    static func end(_ stream: LiveStream, error: CaptureLiveStreamError?) {
        var error = error
        if stream.writer != nil {
            let sent = stream.sent
            do { try stream.finishWriter() } catch let failure {
                error = error ?? .connectionLost(destination: stream.name, reason: LiveStream.reason(of: failure))
            }
            stream.writer = nil
            stream.sentBefore = sent
        }
        stream.output.state.withLock { state in
            state.isStreaming = false
            state.stopRequested = false
        }
        if let error {
            stream.continuation.yield(.failed(error))
        } else {
            stream.continuation.yield(.finished(stream.url, duration: MediaTime(value: stream.sentBefore, timescale: 1_000_000)))
        }
        stream.continuation.finish()
    }

    private static func fail(_ output: CaptureLiveStreamOutput, _ continuation: AsyncStream<CaptureLiveStreamOutput.Event>.Continuation,
                             _ error: CaptureLiveStreamError) {
        output.state.withLock { $0.isStreaming = false }
        continuation.yield(.failed(error))
        continuation.finish()
    }
}
