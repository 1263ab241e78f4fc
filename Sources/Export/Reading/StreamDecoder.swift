import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Reads the packets of one stream of a file and decodes them: the one place that owns the read–send–receive loop
/// (`av_read_frame`, `avcodec_send_packet`, `avcodec_receive_frame`) and its rules.
///
/// **Rules.**
/// - Packets of other streams are skipped (their demuxing is switched off with `AVDISCARD_ALL` where the file is
///   opened here).
/// - At the end of the file the decoder is drained (`avcodec_send_packet(NULL)`), so frames it holds back come out;
///   after the last one ``decode(into:)`` keeps answering false.
/// - A corrupt packet or a frame the decoder cannot rebuild (`AVERROR_INVALIDDATA`, reported by `send`, by
///   `receive`, or late while draining with frame threads) is skipped: the stream goes on with the next one.
///   A read that fails with `AVERROR_INVALIDDATA` (a damaged tail) ends the stream like the end of the file —
///   unless the file is cut short (its index lists samples beyond its end, ``InputFile/readPacket(into:)``): that is
///   ``ExportError/sourceTruncated(_:trackID:dataEnd:indexedEnd:)``, never a stream taken for shorter than it is.
/// - Cancellation (the file's ``CancellationFlag``, polled before each step and by libavformat's interrupt
///   callback during blocking reads) throws `CancellationError`.
/// - Every other failure is ``ExportError/sourceUnreadable(_:reason:)`` naming the file, the stream (``label``)
///   and FFmpeg's reason.
///
/// Owns its ``InputFile``, ``Decoder`` and ``Packet`` (each freed by its own `deinit`); frames are the caller's.
/// Confined to one worker; not `Sendable`.
final class StreamDecoder {
    /// The stream read (its file is opened and owned through it).
    let source: SourceStream
    /// The decoder (its context says the sample rate, channel layout, sample or pixel format).
    let decoder: Decoder
    /// How errors name the stream, e.g. `"audio track 2 (aac)"`.
    let label: String
    private let packet: Packet
    /// True once the file has no more packets (or its tail is damaged) and the decoder was told to drain.
    private var inputExhausted = false
    /// True once the drained decoder gave its last frame.
    private(set) var isAtEnd = false

    /// Decodes `source` from where it stands.
    ///
    /// - Parameters:
    ///   - source: the stream (taken over: it lives as long as the decoder).
    ///   - label: how errors name the stream, e.g. `"audio track 2 (aac)"`.
    ///   - threads: decoder threads; 0 lets FFmpeg choose (one per core).
    ///   - strict: report pictures with decode errors as corrupt instead of concealing them (see ``Decoder``).
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when FFmpeg has no usable decoder for it.
    init(source: SourceStream, label: String, threads: Int32 = 0, strict: Bool = false) throws {
        self.source = source
        self.label = label
        do {
            decoder = try source.makeDecoder(threads: threads, strict: strict)
        } catch {
            throw ExportError.sourceUnreadable(source.url, reason: "no usable decoder for \(label): \(error)")
        }
        packet = try Packet()
    }

    /// Decodes stream `streamIndex` of the opened `input` (taken over) from where it stands.
    /// - Throws: as ``SourceStream/init(input:index:)`` and ``init(source:label:threads:strict:)``.
    convenience init(input: InputFile, streamIndex: Int, label: String, threads: Int32 = 0, strict: Bool = false) throws {
        try self.init(source: SourceStream(input: input, index: streamIndex), label: label, threads: threads, strict: strict)
    }

    /// Opens the file of `track` and decodes its stream from the start; errors name the track as
    /// `"audio track 2 (aac)"` or `"track 1 (h264)"`.
    ///
    /// - Parameters:
    ///   - threads: decoder threads; 0 lets FFmpeg choose (one per core).
    ///   - cancellation: polled during reads and between decoding steps.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when the file cannot be opened (the loader's reason),
    ///   no longer has the stream, or FFmpeg has no usable decoder for it; `CancellationError` when cancelled while
    ///   opening.
    convenience init(track: AssetTrack, threads: Int32 = 0, cancellation: CancellationFlag) throws {
        let source = try SourceStream(url: track.assetURL, index: track.streamIndex, cancellation: cancellation)
        let kind = track.mediaType == .audio ? "audio track" : "track"
        try self.init(source: source, label: "\(kind) \(track.trackID) (\(track.codecName))", threads: threads)
    }

    /// The stream's time base: decoded frames' timestamps are in it.
    var timeBase: AVRational { source.timeBase }

    /// The file's cancellation flag.
    var cancellation: CancellationFlag { source.cancellation }

    /// Decodes the next frame of the stream into `frame` (replacing what it held), following the rules above.
    ///
    /// - Returns: true when `frame` holds a decoded frame; false at the end of the stream (and on every call after).
    /// - Throws: `CancellationError`; ``ExportError/sourceUnreadable(_:reason:)`` for a read or decoder failure other
    ///   than a corrupt packet.
    func decode(into frame: Frame) throws -> Bool {
        while !isAtEnd {
            if source.cancellation.isCancelled { throw CancellationError() }
            let output: Decoder.Output
            do {
                output = try decoder.receive(into: frame)
            } catch let error as FFmpegError where error == .invalidData {
                continue  // a frame the decoder could not rebuild (frame threads report it here): skip it
            } catch let error as FFmpegError {
                throw decodingFailed(error)
            }
            switch output {
            case .frame:
                return true
            case .endOfStream:
                isAtEnd = true
            case .needsInput:
                if !inputExhausted, try readPacket() {
                    try send(packet)
                } else {
                    inputExhausted = true
                    try send(nil)
                }
            }
        }
        return false
    }

    /// Seeks so that decoding goes on from the key frame at or before `timestamp` and drops what the decoder held
    /// (wraps `av_seek_frame` with `AVSEEK_FLAG_BACKWARD`, then `avcodec_flush_buffers`).
    ///
    /// - Parameters:
    ///   - timestamp: a presentation timestamp in ``timeBase``.
    ///   - time: the same moment as the caller names it (source time), for the error message.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when the demuxer cannot seek there.
    func seek(toTimestamp timestamp: Int64, describedAs time: MediaTime) throws {
        do {
            try source.seek(toTimestamp: timestamp)
        } catch {
            throw ExportError.sourceUnreadable(source.url, reason: "cannot seek \(label) to \(time): \(error)")
        }
        decoder.flush()
        inputExhausted = false
        isAtEnd = false
    }

    /// Reads the next packet of this stream, its priming marked when only the stream states it
    /// (``InputFile/markPriming(of:)``); false at the end of the file or at a damaged tail.
    private func readPacket() throws -> Bool {
        do {
            guard try source.readPacket(into: packet) else { return false }
            try source.input.markPriming(of: packet)
            return true
        } catch let error as FFmpegError where error == .invalidData {
            return false  // a damaged tail: the end of the stream rather than a failed export
        } catch {
            throw ExportError.reading(error, source: source.url, doing: "reading \(label)")
        }
    }

    /// Sends one packet, or nil to start draining the decoder. A corrupt packet is skipped (the previous picture stays
    /// on screen, sample-and-hold); frame threads report one late, possibly while draining: skipped the same way.
    private func send(_ packet: Packet?) throws {
        do {
            _ = try decoder.send(packet)
        } catch let error as FFmpegError where error == .invalidData {
            return
        } catch let error as FFmpegError {
            throw decodingFailed(error)
        }
    }

    /// A decoder failure other than a corrupt packet (e.g. a damaged header asking for a feature FFmpeg does not
    /// implement), as the public error naming the file and stream.
    private func decodingFailed(_ error: FFmpegError) -> ExportError {
        .sourceUnreadable(source.url, reason: "decoding \(label): \(error)")
    }
}
