import Composition
import Dispatch
import Foundation
import SpliceFFmpeg

/// One live stream on the engine thread: its writer (the recording engine, writing to a network muxer) and its events.
final class LiveStream {
    let output: CaptureLiveStreamOutput
    let url: URL
    let writer: MovieWriter
    let continuation: AsyncStream<CaptureLiveStreamOutput.Event>.Continuation
    /// The first write error, which ends the stream after the current frame.
    var failure: (any Error)?

    init(output: CaptureLiveStreamOutput, url: URL, writer: MovieWriter,
         continuation: AsyncStream<CaptureLiveStreamOutput.Event>.Continuation) {
        self.output = output
        self.url = url
        self.writer = writer
        self.continuation = continuation
    }

    /// Hands a picture or sound to the stream; a failed write is kept (``failure``), never thrown into the session.
    func append(_ frame: Frame, at time: Int64, isAudio: Bool) {
        guard failure == nil else { return }
        do {
            if isAudio { try writer.appendAudio(frame, at: time) } else { try writer.appendVideo(frame, at: time) }
        } catch {
            failure = error
        }
    }
}

extension SessionEngine {
    /// Opens the stream an output asked for (connecting with its timeout), or ends one that was stopped or broke.
    func startOrStopStream(_ output: CaptureLiveStreamOutput, streams: inout [ObjectIdentifier: LiveStream], now: Int64) {
        let key = ObjectIdentifier(output)
        if let stream = streams[key] {
            if let failure = stream.failure {
                Self.end(stream, error: .connectionLost(destination: CaptureLiveStreamOutput.name(of: stream.url),
                                                        reason: FailureReason.words(for: failure)))
                streams[key] = nil
            } else if output.state.withLock({ $0.stopRequested }) {
                Self.end(stream, error: nil)
                streams[key] = nil
            }
            return
        }
        guard let (url, continuation) = output.state.withLock({ state -> (URL, AsyncStream<CaptureLiveStreamOutput.Event>.Continuation)? in
            defer { state.pendingStart = nil }
            if state.pendingStart != nil { state.isStreaming = true }
            return state.pendingStart
        }) else { return }
        let name = CaptureLiveStreamOutput.name(of: url)
        continuation.yield(.connecting(url))
        let (settings, connections) = output.state.withLock { ($0.settings, $0.connections) }
        guard let destination = LiveStreamDestination(url) else {
            Self.fail(output, continuation, .unsupportedDestination(name))
            return
        }
        let enabled = connections.filter(\.isEnabled)
        let video = enabled.first { $0.mediaType == .video }?.inputDevice.activeFormat
        let audioConnection = enabled.first { $0.mediaType == .audio }
        let frameRate = Int32(video?.maxFrameRate.rounded() ?? 30)
        var muxerOptions: [String: String] = [:]
        var ioOptions: [String: String] = [:]
        switch destination.format {
        case "flv": muxerOptions = ["flvflags": "no_duration_filesize"]
        case "hls":
            muxerOptions = ["hls_time": String(format: "%.3f", max(settings.segmentDuration.seconds, 0.1)),
                            "hls_list_size": "\(settings.playlistLength)", "hls_segment_type": "fmp4",
                            "hls_flags": "delete_segments+independent_segments+temp_file"]
        default:
            // SRT: a connection that cannot be made fails inside the timeout (µs) instead of libsrt's own 3 s.
            ioOptions = ["connect_timeout": "\(Int64(max(settings.connectionTimeout.seconds, 0.1) * 1_000))"]
        }
        let cancellation = CancellationFlag()
        var writerSettings = MovieWriterSettings(
            url: url, video: video.map { ($0.width, $0.height, frameRate) }, audioSampleRate: audioConnection?.inputDevice.activeFormat?.sampleRate,
            maxDuration: nil, maxFileSize: nil, minFreeDiskSpace: nil, fragmentInterval: Int64.max / 2,
            initialFragmentInterval: Int64.max / 2, audioChannels: audioConnection?.audioChannels ?? [])
        writerSettings.cancellation = cancellation
        writerSettings.destination = .liveStream(
            format: destination.format, target: destination.target, ioOptions: ioOptions, muxerOptions: muxerOptions,
            videoBitRate: settings.videoBitRate, audioBitRate: settings.audioBitRate,
            keyFrameInterval: max(1, Int((settings.keyFrameInterval.seconds * Double(frameRate)).rounded())))
        // The connection is bounded: past the timeout the muxer's blocking I/O is interrupted.
        let connecting = Locked(true)
        let timeout = max(settings.connectionTimeout.seconds, 0.1)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if connecting.withLock({ $0 }) { cancellation.cancel() }
        }
        do {
            let writer = try MovieWriter(settings: writerSettings, requestedStart: now)
            connecting.withLock { $0 = false }
            streams[key] = LiveStream(output: output, url: url, writer: writer, continuation: continuation)
            continuation.yield(.streaming(url))
        } catch {
            connecting.withLock { $0 = false }
            let reason = cancellation.isCancelled ? "no answer within \(String(format: "%g", timeout)) s"
                : Self.reason(of: error)
            Self.fail(output, continuation, .connectionFailed(destination: name, reason: reason))
        }
    }

    /// Ends `stream`: its trailer written (a broken one's attempt bounded by the broken connection), the event sent.
    static func end(_ stream: LiveStream, error: CaptureLiveStreamError?) {
        let finishError = { () -> (any Error)? in
            do { try stream.writer.finish() } catch { return error }
            return nil
        }()
        stream.output.state.withLock { state in
            state.isStreaming = false
            state.stopRequested = false
        }
        if let error {
            stream.continuation.yield(.failed(error))
        } else if let finishError {
            stream.continuation.yield(.failed(.connectionLost(destination: CaptureLiveStreamOutput.name(of: stream.url),
                                                              reason: reason(of: finishError))))
        } else {
            stream.continuation.yield(.finished(stream.url, duration: MediaTime(value: stream.writer.recordedDuration,
                                                                                timescale: 1_000_000)))
        }
        stream.continuation.finish()
    }

    private static func fail(_ output: CaptureLiveStreamOutput, _ continuation: AsyncStream<CaptureLiveStreamOutput.Event>.Continuation,
                             _ error: CaptureLiveStreamError) {
        output.state.withLock { $0.isStreaming = false }
        continuation.yield(.failed(error))
        continuation.finish()
    }

    /// The words of a writer's error (a recording error carries FFmpeg's reason).
    private static func reason(of error: any Error) -> String {
        if case .writeFailed(_, let reason) = error as? CaptureRecordingError { return reason }
        return FailureReason.words(for: error)
    }
}
