import Composition
import Foundation
import SpliceFFmpeg

/// One live stream on the engine thread: where its packets come from — a recording's encoders it shares, or its own
/// (a writer without a file) while no such recording runs — and the sender that writes them to the network on a
/// thread of its own (``LiveStreamSender``).
final class LiveStream {
    let output: CaptureLiveStreamOutput
    let url: URL
    let sender: LiveStreamSender
    /// What a writer of the stream's own is made with (no file; the stream's rates).
    let ownSettings: MovieWriterSettings
    /// The stream's own encoders; nil while it shares a recording's.
    var ownWriter: MovieWriter?
    /// The recording whose encoders the stream shares (its movie output's identity), nil while it encodes alone.
    var sharedRecording: ObjectIdentifier?

    init(output: CaptureLiveStreamOutput, url: URL, sender: LiveStreamSender, ownSettings: MovieWriterSettings) {
        self.output = output
        self.url = url
        self.sender = sender
        self.ownSettings = ownSettings
    }

    /// True when `writer` can feed this stream: a recording encoded with a stream's constraints, with the same
    /// kinds of streams (pictures, sound) as this one.
    func canShare(_ writer: MovieWriter) -> Bool { Self.canShare(writer, with: ownSettings) }

    /// True when `writer` can feed a stream whose own encoders would be made with `settings`.
    static func canShare(_ writer: MovieWriter, with settings: MovieWriterSettings) -> Bool {
        writer.settings.rateControl != nil && (writer.settings.video == nil) == (settings.video == nil)
            && (writer.settings.audioSampleRate == nil) == (settings.audioSampleRate == nil)
    }

    /// Hands a picture or sound to the stream's own encoders (nothing while it shares a recording's). A failed
    /// encode ends the own writer: the stream sends nothing more until its source changes.
    func append(_ frame: Frame, at time: Int64, isAudio: Bool) {
        guard let writer = ownWriter else { return }
        do {
            if isAudio { try writer.appendAudio(frame, at: time) } else { try writer.appendVideo(frame, at: time) }
        } catch {
            writer.muxer.stopMirroring(to: sender)
            ownWriter = nil
        }
    }

    /// Moves the stream onto `recording`'s encoders: its own are drained into the stream, then the recording's
    /// packets follow from its next one (the recording's first picture, a key picture).
    func share(_ writer: MovieWriter, of recording: ObjectIdentifier) {
        endOwnWriter()
        sender.switchSource(to: writer.muxer.streamDescriptions)
        writer.muxer.mirror(to: sender)
        sharedRecording = recording
    }

    /// Gives the stream encoders of its own again (its recording ended), starting at session time `now` µs.
    func encodeAlone(now: Int64) {
        sharedRecording = nil
        guard let writer = try? MovieWriter(settings: ownSettings, requestedStart: now) else { return }
        sender.switchSource(to: writer.muxer.streamDescriptions)
        writer.muxer.mirror(to: sender)
        ownWriter = writer
    }

    /// Drains the own encoders into the stream and lets them go.
    func endOwnWriter() {
        guard let writer = ownWriter else { return }
        try? writer.finish()
        writer.muxer.stopMirroring(to: sender)
        ownWriter = nil
    }
}

extension SessionEngine {
    /// Opens the stream an output asked for, keeps its source right (a recording's encoders while a recording that
    /// can feed it runs, its own otherwise), or ends one that was stopped or whose sender ended.
    func startOrStopStream(_ output: CaptureLiveStreamOutput, streams: inout [ObjectIdentifier: LiveStream],
                           writers: [ObjectIdentifier: (MovieWriter, AsyncStream<CaptureRecordingEvent>.Continuation)],
                           now: Int64) {
        let key = ObjectIdentifier(output)
        if let stream = streams[key] {
            if stream.sender.hasEnded || output.state.withLock({ $0.stopRequested }) {
                Self.end(stream, writers: writers)
                streams[key] = nil
            } else if let recording = stream.sharedRecording {
                if writers[recording] == nil { stream.encodeAlone(now: now) }
            } else if let (recording, (writer, _)) = writers.first(where: { stream.canShare($0.value.0) }) {
                stream.share(writer, of: recording)
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
            Self.fail(output, continuation, .unsupportedDestination(LiveStreamDestination.name(of: url)))
            return
        }
        let enabled = connections.filter(\.isEnabled)
        let video = enabled.first { $0.mediaType == .video }?.inputDevice.activeFormat
        let audioConnection = enabled.first { $0.mediaType == .audio }
        var ownSettings = MovieWriterSettings(
            url: url, video: video.map { ($0.width, $0.height, Int32($0.maxFrameRate.rounded())) },
            audioSampleRate: audioConnection?.inputDevice.activeFormat?.sampleRate,
            maxDuration: nil, maxFileSize: nil, minFreeDiskSpace: nil, fragmentInterval: Int64.max / 2,
            initialFragmentInterval: Int64.max / 2, audioChannels: audioConnection?.audioChannels ?? [])
        ownSettings.destination = .liveStream
        ownSettings.rateControl = output.rateControl(frameRate: ownSettings.video?.frameRate ?? 30)
        // The packets' first source: a recording that can feed the stream, or encoders of its own.
        var own: MovieWriter?
        var shared: (ObjectIdentifier, MovieWriter)?
        if let (recording, (writer, _)) = writers.first(where: { LiveStream.canShare($0.value.0, with: ownSettings) }) {
            shared = (recording, writer)
        } else {
            do { own = try MovieWriter(settings: ownSettings, requestedStart: now) } catch {
                Self.fail(output, continuation, .connectionFailed(destination: destination.name, reason: LiveStreamEvents.reason(of: error)))
                return
            }
        }
        guard let source = (shared?.1 ?? own)?.muxer.streamDescriptions else { return }
        let sender = LiveStreamSender(destination: destination, source: source, settings: settings.senderSettings,
                                      events: LiveStreamEvents(output: output, url: url, continuation: continuation).report)
        let stream = LiveStream(output: output, url: url, sender: sender, ownSettings: ownSettings)
        if let (recording, writer) = shared {
            writer.muxer.mirror(to: sender)
            stream.sharedRecording = recording
        } else if let own {
            own.muxer.mirror(to: sender)
            stream.ownWriter = own
        }
        streams[key] = stream
    }

    /// Ends `stream`: its packets stop (its own encoders drained into it), and its sender writes what is queued and
    /// the trailer on its own thread, then reports how it ended.
    static func end(_ stream: LiveStream, writers: [ObjectIdentifier: (MovieWriter, AsyncStream<CaptureRecordingEvent>.Continuation)]) {
        if let recording = stream.sharedRecording { writers[recording]?.0.muxer.stopMirroring(to: stream.sender) }
        stream.endOwnWriter()
        stream.sender.finish()
    }

    private static func fail(_ output: CaptureLiveStreamOutput, _ continuation: AsyncStream<CaptureLiveStreamOutput.Event>.Continuation,
                             _ error: CaptureLiveStreamError) {
        output.state.withLock { $0.isStreaming = false }
        continuation.yield(.failed(error))
        continuation.finish()
    }
}

/// Turns a sender's events into the output's (naming its URL), and marks the output idle when the stream ended.
struct LiveStreamEvents: Sendable {
    let output: CaptureLiveStreamOutput
    let url: URL
    let continuation: AsyncStream<CaptureLiveStreamOutput.Event>.Continuation

    @Sendable func report(_ event: LiveStreamSender.Event) {
        let name = LiveStreamDestination.name(of: url)
        switch event {
        case .streaming: continuation.yield(.streaming(url))
        case .reconnecting(let attempt): continuation.yield(.reconnecting(url, attempt: attempt))
        case .dropped(let pictures, let duration):
            continuation.yield(.dropped(url, pictures: pictures, duration: MediaTime(value: duration, timescale: 1_000_000)))
        case .finished(let sent):
            idle()
            continuation.yield(.finished(url, duration: MediaTime(value: sent, timescale: 1_000_000)))
            continuation.finish()
        case .failed(let failure):
            idle()
            switch failure {
            case .connectionFailed(let reason): continuation.yield(.failed(.connectionFailed(destination: name, reason: reason)))
            case .connectionLost(let reason): continuation.yield(.failed(.connectionLost(destination: name, reason: reason)))
            }
            continuation.finish()
        }
    }

    private func idle() {
        output.state.withLock { state in
            state.isStreaming = false
            state.stopRequested = false
        }
    }

    /// The words of a writer's error (a recording error carries FFmpeg's reason).
    static func reason(of error: any Error) -> String {
        if case .writeFailed(_, let reason) = error as? CaptureRecordingError { return reason }
        return FailureReason.words(for: error)
    }
}
