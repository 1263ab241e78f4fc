import SpliceFFmpeg
import Composition
import Foundation

extension Asset {
    /// Describes the media file at `url`: its tracks, exact durations and picture/sound facts, as AVFoundation's
    /// `AVURLAsset` after `load(.tracks, .duration)` (wraps `avformat_open_input` and `avformat_find_stream_info`,
    /// then one pass over the packets without decoding, and one decode of each audio track to count its samples).
    ///
    /// - Each track's source time 0 is its own first *presented* sample: edit-list skips, AAC priming and non-zero
    ///   stream starts are folded in; where that lay in the file is ``AssetTrack/startTimeOffset``.
    /// - Durations are exact rationals: video from the first picture to the last picture's end; audio = presented
    ///   samples ÷ rate, never more than decoding gives. ``Asset/duration`` is the latest video or audio end.
    /// - Frame facts (count, shortest interval, variable rate) come from packet timestamps; past
    ///   ``packetScanLimit`` packets the container's durations are used and `frameCount` is nil.
    /// - A still image is one video track with `isStillImage`, an unbounded duration and its EXIF orientation as
    ///   `preferredTransform`.
    ///
    /// Runs on a thread of its own; task cancellation stops it promptly.
    ///
    /// - Parameter url: a `file:` URL of a media file or still image.
    /// - Returns: the asset description; every track of the file is listed, video and audio ones fully described.
    /// - Throws: ``AssetLoadingError`` naming the file and the cause (missing, permission denied, a directory, a
    ///   FIFO or device, empty, not a media file, corrupt or truncated, no video or audio track, no decoder for any
    ///   track); `CancellationError` when the task is cancelled.
    public static func load(from url: URL) async throws -> Asset {
        try await load(from: url, packetScanLimit: AssetProbe.packetScanLimit)
    }

    /// The most packets one ``load(from:)`` reads (all streams together) before it completes the timings from the
    /// container's declared durations instead.
    public static var packetScanLimit: Int { AssetProbe.packetScanLimit }

    /// ``load(from:)`` with a different packet limit (tests).
    static func load(from url: URL, packetScanLimit: Int) async throws -> Asset {
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await WorkerThread.run(name: "splice.load") {
                try AssetProbe.load(url: url, cancellation: cancellation, packetScanLimit: packetScanLimit)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
