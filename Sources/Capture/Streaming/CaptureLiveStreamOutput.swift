import Composition
import Foundation
import SpliceFFmpeg

/// Encodes the session's picture and sound and sends them live (no AVFoundation counterpart; on Apple systems apps
/// write this from a video data output and their own encoder): H.264 + AAC at constant bit rates, a key frame every
/// ``keyFrameInterval``, to
/// - an RTMP server (`rtmp://host:port/app/key`, `rtmps://`): FLV, as RTMP ingest servers take it;
/// - an SRT peer (`srt://host:port`, FFmpeg's `libsrt` options in the query): MPEG-TS;
/// - a folder (a file URL ending in `.m3u8`): live HLS, a playlist of the last ``playlistLength`` fragmented-MP4
///   segments of ``segmentDuration`` each, older segments deleted.
///
/// Pictures go on the stream's frame grid and sound is counted by the sample exactly as a recording's
/// (``CaptureMovieFileOutput``): the same engine writes both.
///
/// **One encode for a stream and a recording.** A recording started while its session has a live-stream output is
/// encoded with that output's constraints — constant ``videoBitRate`` with a one-second VBV buffer, a key frame every
/// ``keyFrameInterval`` and no other, AAC at ``audioBitRate`` — instead of a recording's defaults (CRF 23, a key
/// frame every second, 128 kb/s), so that its encoders can feed the stream too: while such a recording runs, the
/// stream sends the recording's own packets, byte for byte (starting at its next key frame), and no second encoder
/// runs. Pausing that recording pauses the stream (the pause is left out of both). Without such a recording — none
/// running, or once it ended — the stream encodes alone with the same settings.
///
/// Network writes run on a thread of the stream's own behind a queue of ``sendQueueDuration``: a slow, stalled or
/// reconnecting server never holds the session or a recording; when the queue is full, whole groups of pictures are
/// dropped and reported (``Event/dropped(_:pictures:duration:)``). A lost connection is made again with backoff
/// (``Event/reconnecting(_:attempt:)``), and when that fails ends the stream
/// (``CaptureLiveStreamError/connectionLost(destination:reason:)``) — never the session or the recording.
public final class CaptureLiveStreamOutput: CaptureOutput, ConnectableOutput {
    /// What happens to a stream, in order: `connecting`, `streaming` once the server took the stream's header,
    /// `reconnecting` and `streaming` again after a broken connection (`dropped` whenever the send queue overflowed),
    /// then `finished` (``stopStreaming()`` or the session stopped) or `failed`. The event stream ends after either.
    public enum Event: Sendable, Hashable {
        /// The connection is being made.
        case connecting(URL)
        /// The server took the stream; pictures and sound follow.
        case streaming(URL)
        /// The connection broke; attempt `attempt` (from 1) to connect again follows after a wait (1 s, doubling up
        /// to 8 s). Pictures and sound taken meanwhile are not sent; a recording of the session is not affected.
        case reconnecting(URL, attempt: Int)
        /// The network was slower than the stream and the send queue (``sendQueueDuration``) was full: `pictures`
        /// pictures, and the sound beside them, were not sent — whole groups of pictures, from the one that did not
        /// fit up to the next key frame that did — covering `duration` of stream time (µs timescale). The stream
        /// goes on from that key frame; its timestamps keep the gap, so picture and sound stay in sync.
        case dropped(URL, pictures: Int, duration: MediaTime)
        /// The stream ended cleanly (its trailer written), with the stream time sent over all its connections
        /// (µs timescale).
        case finished(URL, duration: MediaTime)
        /// The stream could not start, or broke.
        case failed(CaptureLiveStreamError)
    }

    struct Settings: Sendable {
        var videoBitRate = 2_500_000
        var audioBitRate = 128_000
        var keyFrameInterval = MediaTime(seconds: 2)
        var connectionTimeout = MediaTime(seconds: 5)
        var writeTimeout = MediaTime(seconds: 5)
        var segmentDuration = MediaTime(seconds: 2)
        var playlistLength = 5
        var maximumReconnectAttempts = 5
        var sendQueueDuration = MediaTime(seconds: 2)
    }

    struct State: Sendable {
        var settings = Settings()
        var connections: [CaptureConnection] = []
        var pendingStart: (URL, AsyncStream<Event>.Continuation)?
        var stopRequested = false
        var isStreaming = false
    }

    let state = Locked(State())

    /// An output at 2.5 Mb/s video and 128 kb/s audio, a key frame every 2 s.
    public init() {}

    /// Video and audio.
    public var acceptedMediaTypes: Set<MediaType> { [.video, .audio] }

    /// The connections made when the session started.
    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func connect(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// The video bit rate, bits per second (default 2 500 000), constant: x264's CBR with a VBV buffer of one second
    /// of it (`maxrate` = `bufsize` = the rate). Read when streaming starts; at least 10 000.
    public var videoBitRate: Int {
        get { state.withLock { $0.settings.videoBitRate } }
        set { state.withLock { $0.settings.videoBitRate = max(10_000, newValue) } }
    }

    /// The AAC bit rate, bits per second (default 128 000). Read when streaming starts; at least 8 000.
    public var audioBitRate: Int {
        get { state.withLock { $0.settings.audioBitRate } }
        set { state.withLock { $0.settings.audioBitRate = max(8_000, newValue) } }
    }

    /// Time between key frames (default 2 s, what RTMP ingest servers ask for; rounded to whole frames, at least
    /// one). HLS segments start on key frames, so ``segmentDuration`` should be a multiple of it.
    public var keyFrameInterval: MediaTime {
        get { state.withLock { $0.settings.keyFrameInterval } }
        set { state.withLock { $0.settings.keyFrameInterval = newValue } }
    }

    /// How long connecting may take before the stream fails with ``CaptureLiveStreamError/connectionFailed(destination:reason:)``
    /// (default 5 s). The connection is made on the stream's own thread: the session and a recording beside it never
    /// wait for it.
    public var connectionTimeout: MediaTime {
        get { state.withLock { $0.settings.connectionTimeout } }
        set { state.withLock { $0.settings.connectionTimeout = newValue } }
    }

    /// How long one write to the server may wait (default 5 s, at least 0.1 s): a server that stops reading without
    /// closing the connection fills the socket's buffers, then the write waits; past this time it is interrupted
    /// (FFmpeg's interrupt callback) and the connection counts as broken — ``Event/reconnecting(_:attempt:)``
    /// follows, as for a dropped one. Writes run on the stream's own thread: while one waits, the session and a
    /// recording beside the stream go on, and the stream's packets wait in the send queue (``sendQueueDuration``).
    public var writeTimeout: MediaTime {
        get { state.withLock { $0.settings.writeTimeout } }
        set { state.withLock { $0.settings.writeTimeout = newValue } }
    }

    /// How much stream time may wait to be sent (default 2 s, at least 0.1 s): packets go from the encoder to the
    /// network through a queue on the stream's own thread. When the network is slower than the stream and the queue
    /// is full, whole groups of pictures are dropped, up to the next key frame that fits, and reported
    /// (``Event/dropped(_:pictures:duration:)``); the session is never held. Read when streaming starts.
    public var sendQueueDuration: MediaTime {
        get { state.withLock { $0.settings.sendQueueDuration } }
        set { state.withLock { $0.settings.sendQueueDuration = newValue } }
    }

    /// Live HLS: the target length of a segment (default 2 s; FFmpeg's `hls_time`, cut at the next key frame).
    public var segmentDuration: MediaTime {
        get { state.withLock { $0.settings.segmentDuration } }
        set { state.withLock { $0.settings.segmentDuration = newValue } }
    }

    /// Live HLS: how many segments the playlist lists (default 5, at least 1; FFmpeg's `hls_list_size`).
    public var playlistLength: Int {
        get { state.withLock { $0.settings.playlistLength } }
        set { state.withLock { $0.settings.playlistLength = max(1, newValue) } }
    }

    /// How many times a broken connection is made again before the stream fails with
    /// ``CaptureLiveStreamError/connectionLost(destination:reason:)`` (default 5, waiting 1, 2, 4, 8, 8 s before
    /// the attempts; 0 fails at once). A connection that could not be made at the start is not retried.
    public var maximumReconnectAttempts: Int {
        get { state.withLock { $0.settings.maximumReconnectAttempts } }
        set { state.withLock { $0.settings.maximumReconnectAttempts = max(0, newValue) } }
    }

    /// True from ``startStreaming(to:)`` until the stream finished or failed.
    public var isStreaming: Bool { state.withLock { $0.isStreaming || $0.pendingStart != nil } }

    /// Starts streaming to `url` with the session's next frame; the session must be running. Returns the stream's
    /// events.
    /// - Throws: ``CaptureLiveStreamError/unsupportedDestination(_:)`` for a scheme or file this output cannot
    ///   stream to; ``CaptureLiveStreamError/notReady(_:)`` while streaming already or before the session runs.
    public func startStreaming(to url: URL) throws(CaptureLiveStreamError) -> AsyncStream<Event> {
        try Self.checkDestination(url)
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let accepted = state.withLock { state -> Bool in
            guard !state.isStreaming, state.pendingStart == nil, !state.connections.isEmpty else { return false }
            state.pendingStart = (url, continuation)
            state.stopRequested = false
            return true
        }
        guard accepted else { throw .notReady(Self.name(of: url)) }
        return stream
    }

    /// Checks that this output can stream to `url` (an `rtmp`, `rtmps` or `srt` URL, or a file URL ending in
    /// `.m3u8`), without a session: what ``startStreaming(to:)`` checks first, for refusing a destination before
    /// any device is opened.
    /// - Throws: ``CaptureLiveStreamError/unsupportedDestination(_:)`` naming the URL.
    public static func checkDestination(_ url: URL) throws(CaptureLiveStreamError) {
        guard LiveStreamDestination(url) != nil else { throw .unsupportedDestination(name(of: url)) }
    }

    /// Ends the stream at the next frame: the muxer's trailer is written and the connection closed; the events end
    /// with ``Event/finished(_:duration:)``.
    public func stopStreaming() { state.withLock { $0.stopRequested = true } }

    /// The URL as errors name it: the path for a file, the whole URL otherwise.
    static func name(of url: URL) -> String { LiveStreamDestination.name(of: url) }

    /// The stream's constraints on encoders at `frameRate` frames per second: the rates, and the key frame interval
    /// in whole frames (at least one).
    func rateControl(frameRate: Int32) -> MovieWriterSettings.StreamRateControl {
        let settings = state.withLock { $0.settings }
        return MovieWriterSettings.StreamRateControl(
            videoBitRate: settings.videoBitRate, audioBitRate: settings.audioBitRate,
            keyFrameInterval: max(1, Int((settings.keyFrameInterval.seconds * Double(frameRate)).rounded())))
    }
}

extension CaptureLiveStreamOutput.Settings {
    /// The sender's part: timeouts, reconnection, HLS segments and the send queue, in seconds.
    var senderSettings: LiveStreamSender.Settings {
        var sender = LiveStreamSender.Settings()
        sender.connectionTimeout = max(connectionTimeout.seconds, 0.1)
        sender.writeTimeout = max(writeTimeout.seconds, 0.1)
        sender.maximumReconnectAttempts = maximumReconnectAttempts
        sender.segmentDuration = max(segmentDuration.seconds, 0.1)
        sender.playlistLength = playlistLength
        sender.queueDuration = max(sendQueueDuration.seconds, 0.1)
        return sender
    }
}
