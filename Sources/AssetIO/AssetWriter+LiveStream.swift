import Composition
import Foundation
import SpliceFFmpeg

/// A writer that streams live (an RTMP server, an SRT peer, live HLS) instead of writing a file, through the capture
/// live stream's sender.
extension AssetWriter {
    /// A writer that streams live to `liveStreamURL` instead of writing a file, the way a file writer takes its
    /// output URL:
    /// - `rtmp://host:port/app/key`, `rtmps://…`: FLV, as RTMP ingest servers take it (H.264 and AAC inputs);
    /// - `srt://host:port[?options]`: MPEG-TS over SRT, the writer being the caller;
    /// - a file URL ending in `.m3u8`: live HLS, fragmented-MP4 segments of 2 s (cut at key frames) beside the playlist,
    ///   which lists the last 5; the folder must exist.
    ///
    /// The inputs' settings decide the encoding: a server usually wants a constant bit rate
    /// (``VideoSettings/RateControl/averageBitRate(_:)``) and a key frame every 2 s or so
    /// (``VideoSettings/keyFrameInterval``). The connection is made when every input has its first sample (the
    /// streams' parameters are known then), on a thread of its own; packets wait for the network in a bounded queue,
    /// and an append waits while it is full (samples are never dropped: pace appends to real time for a live
    /// audience). A connection that breaks is made again with backoff, as a capture session's live-stream output's;
    /// the stream's time 0 is the first key frame sent over each connection.
    /// - Throws: ``AssetWriterError/unsupportedLiveStreamDestination(_:)`` for another scheme, or a file not ending in
    ///   `.m3u8`. A server that cannot be reached fails the writer with
    ///   ``AssetWriterError/liveStreamFailed(destination:reason:)`` within ``liveStreamConnectionTimeout`` of the
    ///   connection attempt (an append or ``finishWriting()`` throws it).
    public convenience init(liveStreamURL: URL) throws {
        guard let destination = LiveStreamDestination(liveStreamURL) else {
            throw AssetWriterError.unsupportedLiveStreamDestination(liveStreamURL)
        }
        self.init(outputURL: nil, fileType: .mp4, liveStreamURL: liveStreamURL, liveStream: destination)
    }

    /// How long connecting to the live stream may take before the writer fails with
    /// ``AssetWriterError/liveStreamFailed(destination:reason:)`` (default 5 s, at least 0.1 s). Set before
    /// ``startWriting()``.
    public var liveStreamConnectionTimeout: MediaTime {
        get { state.withLock { $0.liveStreamConnectionTimeout } }
        set { state.withLock { if $0.status == .unknown { $0.liveStreamConnectionTimeout = newValue } } }
    }

    /// The live stream's destination and sender settings, for the writer's thread; nil for a file or segment writer.
    func liveStreamJob(of state: State) -> WriterJob.LiveStream? {
        guard let liveStream else { return nil }
        var settings = LiveStreamSender.Settings()
        settings.connectionTimeout = max(state.liveStreamConnectionTimeout.seconds, 0.1)
        return WriterJob.LiveStream(destination: liveStream, settings: settings)
    }
}
