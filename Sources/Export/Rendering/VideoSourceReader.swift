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
    private let input: InputFile
    private let decoder: Decoder
    private let streamIndex: Int
    private let timeBase: AVRational
    /// Half a tick of the stream's clock (the rounding a timestamp may hide) when the track's frame times are
    /// rounded to it; zero otherwise.
    private let halfTick: MediaTime
    private let packet: Packet
    /// The frame on screen for the last request, and its source time.
    private var current: Frame
    private var currentTime: MediaTime?
    /// A decoded frame later than the last request (look-ahead), and its source time.
    private var pending: Frame
    private var pendingTime: MediaTime?
    private var endOfStream = false
    private var inputExhausted = false
    /// A request further ahead than this (seconds) from the decoded position seeks instead of decoding through,
    /// when the file has no index.
    private let seekAheadThreshold = MediaTime(seconds: 3)
    /// With an index: seek when a key frame lies more than this (0.25 s) past the decoded position — decoding that
    /// much costs more than a seek and a decoder flush.
    private let minimumSkip = MediaTime(value: 1, timescale: 4)

    /// Opens the file and a decoder for `track`.
    /// - Throws: ``ExportError`` naming the file when it cannot be opened or decoded.
    init(track: AssetTrack, cancellation: CancellationFlag) throws {
        self.track = track
        do {
            input = try InputFile(url: track.assetURL, cancellation: cancellation)
        } catch let error as AssetLoadingError {
            throw ExportError.sourceUnreadable(track.assetURL, reason: error.description)
        }
        guard track.streamIndex >= 0, track.streamIndex < input.streamCount else {
            throw ExportError.sourceUnreadable(track.assetURL, reason: "it has no stream \(track.streamIndex) any more")
        }
        streamIndex = track.streamIndex
        let stream = input.stream(at: streamIndex)
        timeBase = stream.pointee.time_base
        let doubledDenominator = 2 * Int64(timeBase.den)
        let roundedFrameTimes = track.video.map {
            !$0.hasVariableFrameRate && MutableVideoComposition.standardFrameDuration(of: track) != $0.minFrameDuration
        } ?? false
        halfTick = roundedFrameTimes && timeBase.num > 0 && doubledDenominator <= Int64(Int32.max)
            ? MediaTime(value: Int64(timeBase.num), timescale: Int32(doubledDenominator)) : .zero
        // Only this stream's packets are wanted: let the demuxer skip the others cheaply.
        for index in 0..<input.streamCount where index != streamIndex {
            input.stream(at: index).pointee.discard = AVDISCARD_ALL
        }
        do {
            decoder = try Decoder(stream: stream)
        } catch let error as FFmpegError {
            throw ExportError.sourceUnreadable(
                track.assetURL, reason: "no usable decoder for track \(track.trackID) (\(track.codecName)): \(error)")
        }
        packet = try Packet()
        current = try Frame()
        pending = try Frame()
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
              let entry = avformat_index_get_entry_from_timestamp(input.stream(at: streamIndex), timestamp, AVSEEK_FLAG_BACKWARD),
              let streamTime = MediaTime(pts: entry.pointee.timestamp, timeBase: timeBase)
        else { return nil }
        return streamTime - track.startTimeOffset
    }

    private func seek(to time: MediaTime) throws {
        let streamTime = time + track.startTimeOffset
        let timestamp = streamTime.timestamp(in: timeBase, method: .towardNegativeInfinity) ?? 0
        do {
            try input.seek(streamIndex: streamIndex, toTimestamp: timestamp)
        } catch {
            throw ExportError.sourceUnreadable(
                track.assetURL, reason: "cannot seek track \(track.trackID) to \(time): \(error)")
        }
        decoder.flush()
        current.unref()
        pending.unref()
        currentTime = nil
        pendingTime = nil
        endOfStream = false
        inputExhausted = false
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
        while true {
            if input.cancellation.isCancelled { throw CancellationError() }
            let output: Decoder.Output
            do {
                output = try decoder.receive(into: pending)
            } catch let error as FFmpegError where error == .invalidData {
                continue  // a picture the decoder could not rebuild (frame threads report it here): skip it
            } catch let error as FFmpegError {
                throw decodingFailed(error)
            }
            switch output {
            case .frame:
                let timestamp = pending.bestEffortTimestamp != cmedia_AV_NOPTS_VALUE() ? pending.bestEffortTimestamp : pending.pts
                guard let streamTime = MediaTime(pts: timestamp, timeBase: timeBase) else {
                    pending.unref()
                    continue  // a frame without a usable timestamp cannot be placed: skip it
                }
                pendingTime = streamTime - track.startTimeOffset - halfTick
                return
            case .endOfStream:
                endOfStream = true
                return
            case .needsInput:
                if inputExhausted {
                    try sendEndOfStream()
                    continue
                }
                let more: Bool
                do {
                    more = try input.readPacket(into: packet)
                } catch let error as FFmpegError where error == .exit {
                    throw CancellationError()
                } catch let error as FFmpegError {
                    // A damaged tail: treat as the end of the stream rather than failing the export.
                    if error == .invalidData { more = false } else {
                        throw ExportError.sourceUnreadable(track.assetURL, reason: "reading: \(error)")
                    }
                }
                if !more {
                    inputExhausted = true
                    try sendEndOfStream()
                    continue
                }
                guard packet.streamIndex == streamIndex else { continue }
                do {
                    _ = try decoder.send(packet)
                } catch let error as FFmpegError where error == .invalidData {
                    continue  // a corrupt packet: skip it, keep the previous picture (sample-and-hold)
                } catch let error as FFmpegError {
                    throw decodingFailed(error)
                }
            }
        }
    }

    /// Starts draining the decoder. Frame threads report a corrupt packet late, possibly here: it is skipped like
    /// any corrupt packet.
    private func sendEndOfStream() throws {
        do {
            _ = try decoder.send(nil)
        } catch let error as FFmpegError where error == .invalidData {
            return
        } catch let error as FFmpegError {
            throw decodingFailed(error)
        }
    }

    /// A decoder failure other than a corrupt packet (e.g. a stream feature FFmpeg does not implement), as the
    /// public error naming the file and track.
    private func decodingFailed(_ error: FFmpegError) -> ExportError {
        .sourceUnreadable(track.assetURL, reason: "decoding track \(track.trackID) (\(track.codecName)): \(error)")
    }
}
