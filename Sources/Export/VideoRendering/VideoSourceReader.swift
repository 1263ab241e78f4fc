import SpliceFFmpeg
import Composition
import Foundation
import VideoComposition
internal import CMedia

/// Decodes one video track of one file and answers "which picture is on screen at source time S" with
/// sample-and-hold semantics: the latest decoded frame whose presentation time is ≤ S.
///
/// Source time follows ``AssetTrack``'s rule: 0 is the track's first presented frame (`startTimeOffset` is the stream
/// time of source time 0). When the track's clock cannot express its frame rate (its standard frame duration,
/// `MutableVideoComposition.standardFrameDuration(of:)`, differs from its shortest interval: 30 fps in Matroska's
/// 1 ms clock), its timestamps are rounded, so each frame counts from half a clock tick before its timestamp: a
/// frame at 66.67 ms is stamped 67 ms and must still be the picture at 66.67 ms (otherwise every third frame would be
/// skipped and its predecessor repeated). Exact clocks (20/600 s, 512/15360 s, 1001/30000 s) are taken as they are.
///
/// Requests must be non-decreasing between seeks; a request earlier than what was decoded, or far ahead of it, seeks
/// to the key frame at or before the time and decodes forward (never from zero).
/// Confined to one export worker.
final class VideoSourceReader {
    let track: AssetTrack
    /// The track's packets and decoder (reading, draining, skipping corrupt packets, cancellation).
    private let source: StreamDecoder
    private let timeBase: AVRational
    /// Half a tick of the stream's clock (the rounding a timestamp may hide) when the track's frame times are
    /// rounded to it; zero otherwise.
    private let halfTick: MediaTime
    /// The frame on screen for the last request, and its source time.
    private var current: Frame
    private var currentTime: MediaTime?
    /// A decoded frame later than the last request (look-ahead), and its source time.
    private var pending: Frame
    private var pendingTime: MediaTime?
    private var endOfStream = false
    /// A request further ahead than this (seconds) from the decoded position seeks instead of decoding through,
    /// when the file has no index.
    private let seekAheadThreshold = MediaTime(seconds: 3)
    /// With an index: seek when a key frame lies more than this (0.25 s) past the decoded position — decoding that
    /// much costs more than a seek and a decoder flush.
    private let minimumSkip = MediaTime(value: 1, timescale: 4)

    /// Opens the file and a decoder for `track` with `decoderThreads` threads (0: FFmpeg's choice, one per core).
    /// - Throws: ``ExportError`` naming the file when it cannot be opened or decoded.
    init(track: AssetTrack, decoderThreads: Int32 = 0, cancellation: CancellationFlag) throws {
        self.track = track
        source = try StreamDecoder(track: track, threads: decoderThreads, cancellation: cancellation)
        timeBase = source.timeBase
        halfTick = Self.halfTick(of: track, timeBase: timeBase)
        current = try Frame()
        pending = try Frame()
    }

    /// Half a tick of `timeBase` when `track`'s frame times are rounded to it (its clock cannot express its frame
    /// rate, see the type's discussion); zero otherwise. Subtracted from every decoded frame's source time.
    static func halfTick(of track: AssetTrack, timeBase: AVRational) -> MediaTime {
        let doubledDenominator = 2 * Int64(timeBase.den)
        let roundedFrameTimes = track.video.map {
            !$0.hasVariableFrameRate && MutableVideoComposition.standardFrameDuration(of: track) != $0.minFrameDuration
        } ?? false
        return roundedFrameTimes && timeBase.num > 0 && doubledDenominator <= Int64(Int32.max)
            ? MediaTime(value: Int64(timeBase.num), timescale: Int32(doubledDenominator)) : .zero
    }

    /// The frame to show at source time `time` (sample-and-hold), or nil when the track has no frame at all.
    /// The returned frame is owned by the reader and valid until the next call.
    func frame(at time: MediaTime) throws -> Frame? {
        if track.video?.isStillImage == true {
            if currentTime == nil { try decodeFirstFrame() }
            return currentTime == nil ? nil : current
        }
        if needsSeek(to: time) { try seek(to: time) }
        // Advance while the look-ahead frame is due.
        while true {
            if pendingTime == nil, !endOfStream { try decodeNext() }
            guard let nextTime = pendingTime else { break }
            if nextTime <= time || currentTime == nil {
                swap(&current, &pending)
                currentTime = nextTime
                pendingTime = nil
                pending.unref()
            } else {
                break
            }
        }
        return currentTime == nil ? nil : current
    }

    /// Seek rather than decode forward when the time is earlier than the picture on screen, or when a key frame
    /// lies more than ``minimumSkip`` past the decoded position (decoding from that key frame is cheaper than
    /// decoding through to it). Without an index, a jump of more than ``seekAheadThreshold`` seeks.
    private func needsSeek(to time: MediaTime) -> Bool {
        let decoded = pendingTime ?? currentTime
        guard let shown = currentTime else {
            guard let key = keyFrameTime(atOrBefore: time) else { return time > seekAheadThreshold }
            return key > .zero
        }
        if time < shown { return true }
        if let next = pendingTime, time < next { return false }
        if let key = keyFrameTime(atOrBefore: time), let decoded { return key - decoded > minimumSkip }
        return time - shown > seekAheadThreshold
    }

    /// The source time of the last key frame at or before `time` in the demuxer's index
    /// (`avformat_index_get_entry_from_timestamp`), or nil when the file has no index.
    private func keyFrameTime(atOrBefore time: MediaTime) -> MediaTime? {
        guard let timestamp = (time + track.startTimeOffset).timestamp(in: timeBase, method: .towardNegativeInfinity),
              let keyTimestamp = source.source.indexedKeyFrameTimestamp(atOrBefore: timestamp),
              let streamTime = MediaTime(pts: keyTimestamp, timeBase: timeBase)
        else { return nil }
        return streamTime - track.startTimeOffset
    }

    private func seek(to time: MediaTime) throws {
        let streamTime = time + track.startTimeOffset
        let timestamp = streamTime.timestamp(in: timeBase, method: .towardNegativeInfinity) ?? 0
        try source.seek(toTimestamp: timestamp, describedAs: time)
        current.unref()
        pending.unref()
        currentTime = nil
        pendingTime = nil
        endOfStream = false
        // Decode forward to the frame on screen at `time` (frame(at:) does the rest).
    }

    private func decodeFirstFrame() throws {
        try decodeNext()
        if pendingTime != nil {
            swap(&current, &pending)
            currentTime = pendingTime
            pendingTime = nil
        }
    }

    /// Decodes the next frame into `pending`, or sets `endOfStream`.
    private func decodeNext() throws {
        while try source.decode(into: pending) {
            let timestamp = pending.bestEffortTimestamp != cmedia_AV_NOPTS_VALUE() ? pending.bestEffortTimestamp : pending.pts
            guard let streamTime = MediaTime(pts: timestamp, timeBase: timeBase) else {
                pending.unref()
                continue  // a frame without a usable timestamp cannot be placed: skip it
            }
            pendingTime = streamTime - track.startTimeOffset - halfTick
            return
        }
        endOfStream = true
    }
}
