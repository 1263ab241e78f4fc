import SpliceFFmpeg
import Composition
import Foundation

extension Asset {
    /// Describes the media file at `url`: its tracks, exact durations and picture/sound facts, as AVFoundation's
    /// `AVURLAsset` after `load(.tracks, .duration)`. Built on libavformat (wraps `avformat_open_input` and
    /// `avformat_find_stream_info`, then reads the packets once without decoding them, and decodes each audio track
    /// once to count its samples).
    ///
    /// **Source time.** Each track's time 0 is *its own* first presented sample, as ``AssetTrack`` states: samples an
    /// edit list skips (packets libavformat flags as discarded), AAC priming announced by skip-samples side data
    /// (M05: 2112 samples) and non-zero stream start times (M08: audio 1024/44100 s, video 1001/30000 s) are folded
    /// in. Tracks are folded independently, so M08's first picture and first audio sample both sit at source
    /// time 0; where each lay in the file is kept in ``AssetTrack/startTimeOffset`` (the stream timestamp of source
    /// time 0), which the export engine uses to seek and to trim.
    ///
    /// **Durations** are exact rationals in the stream's own timescale: a video track lasts from its first picture's
    /// timestamp to the last picture's timestamp plus that picture's duration; an audio track lasts its number of
    /// presented samples ÷ sample rate (priming and end padding removed; a packet counts the codec's samples, or
    /// fewer when the container trims it, as M01's last AAC packet of 906 samples), and never more samples than
    /// decoding gives, as the export engine decodes them (M08's first AAC packet decodes to nothing: 118 × 1024
    /// samples, not 119 × 1024; decoding 10 minutes of stereo AAC takes about 0.5 s of CPU). ``Asset/duration`` is the
    /// latest end among video and audio tracks (data tracks are listed, not counted).
    ///
    /// **Frame facts** (frame count, shortest frame interval, variable frame rate) come from the video packets'
    /// timestamps. For long files the scan stops after ``packetScanLimit`` packets (all streams; about 9 minutes
    /// of 30 fps video with AAC): durations then come from the container's declared stream durations and
    /// `frameCount` is nil.
    ///
    /// **Still images** (PNG, JPEG, any format FFmpeg reads as a single image) load as one video track with
    /// `isStillImage` true, `frameCount` 1 and an unbounded time range (duration ``MediaTime/positiveInfinity``,
    /// also the asset's duration), so they can be inserted for any duration. EXIF orientation is honoured: the one
    /// picture is decoded and its display matrix (or `Orientation` tag) becomes `preferredTransform`, so a JPEG
    /// stored 1512 × 2016 with orientation 6 has a display size of 2016 × 1512.
    ///
    /// The work is blocking file I/O, so it runs on a thread of its own, never on Swift's cooperative pool. Task
    /// cancellation stops it promptly (libavformat's interrupt callback) and throws `CancellationError`.
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
