import Foundation
import SpliceFFmpeg
internal import CMedia

/// One stream of a source file, opened for reading: the ``InputFile`` plus the selected stream, with the demuxing of
/// every other stream switched off (`AVDISCARD_ALL`), so reads return this stream's packets only.
///
/// The one way the engine's readers (decoding, key-frame scans, stream copy, still images) open a source. The
/// stream's `AVStream` is a view into the file and never leaves this owner. Confined to one worker; not `Sendable`.
final class SourceStream {
    /// The opened file.
    let input: InputFile
    /// The stream's index in ``input`` (`AVStream.index`).
    let index: Int
    private let stream: UnsafeMutablePointer<AVStream>
    /// The stream's codec parameters (borrowed from the file: reached through ``withCodecParameters(_:)``).
    private let codecParameters: UnsafeMutablePointer<AVCodecParameters>

    /// Selects stream `index` of the opened `input` (taken over: it lives as long as this owner).
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when the file has no such stream or the stream has no
    ///   codec parameters.
    init(input: InputFile, index: Int) throws {
        guard index >= 0, index < input.streamCount else {
            throw ExportError.sourceUnreadable(input.url, reason: "it has no stream \(index) any more")
        }
        let stream = input.stream(at: index)
        guard let parameters = stream.pointee.codecpar else {
            throw ExportError.sourceUnreadable(input.url, reason: "stream \(index) has no codec parameters")
        }
        self.input = input
        self.index = index
        self.stream = stream
        codecParameters = parameters
        for other in 0..<input.streamCount where other != index {
            input.stream(at: other).pointee.discard = AVDISCARD_ALL
        }
    }

    /// Opens `url` and selects stream `index`.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` with the loader's reason when the file cannot be
    ///   opened, or as ``init(input:index:)``; `CancellationError` when cancelled while opening.
    convenience init(url: URL, index: Int, cancellation: CancellationFlag) throws {
        let input: InputFile
        do {
            input = try InputFile.open(url, cancellation: cancellation)
        } catch {
            throw ExportError.reading(error, source: url)
        }
        try self.init(input: input, index: index)
    }

    /// Opens `url` and selects its best video stream (`av_find_best_stream`), as for a still image.
    /// - Throws: as ``init(url:index:cancellation:)``; ``ExportError/sourceUnreadable(_:reason:)`` when it holds no
    ///   picture.
    convenience init(bestVideoStreamOf url: URL, cancellation: CancellationFlag) throws {
        let input: InputFile
        do {
            input = try InputFile.open(url, cancellation: cancellation)
        } catch {
            throw ExportError.reading(error, source: url)
        }
        let best = input.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO)
        guard let best else { throw ExportError.sourceUnreadable(url, reason: "it holds no picture") }
        try self.init(input: input, index: best)
    }

    /// The file.
    var url: URL { input.url }
    /// The file's cancellation flag.
    var cancellation: CancellationFlag { input.cancellation }
    /// The stream's time base: its packets' and decoded frames' timestamps are in it.
    var timeBase: AVRational { stream.pointee.time_base }

    /// Reads the next packet of this stream into `packet` (wraps `av_read_frame`, skipping other streams' packets).
    /// - Returns: false at the end of the file.
    /// - Throws: ``FFmpegError`` and ``SourceTruncation`` as ``InputFile/readPacket(into:)`` (`AVERROR_EXIT` when
    ///   cancelled).
    func readPacket(into packet: Packet) throws -> Bool {
        while true {
            guard try input.readPacket(into: packet) else { return false }
            if packet.streamIndex == index { return true }
        }
    }

    /// Reads the next packet of this stream as ``readPacket(into:)`` does, with the engine's errors: the one read
    /// loop of the packet readers (stream copy, smart rendering's group scan, piece joining and audio copy).
    /// - Parameters:
    ///   - packet: receives the packet.
    ///   - context: what the read is for, the start of the error's reason (for example "reading packets to join").
    /// - Returns: false at the end of the file.
    /// - Throws: `CancellationError` when the read was interrupted (`AVERROR_EXIT`: the export's cancellation flag
    ///   is set); ``ExportError/sourceTruncated(_:trackID:dataEnd:indexedEnd:)`` when the file ends before the
    ///   samples its index lists; ``ExportError/sourceUnreadable(_:reason:)`` naming ``url``, reason
    ///   "`context`: `error`", for any other failure.
    func readPacket(into packet: Packet, context: String) throws -> Bool {
        do {
            return try readPacket(into: packet)
        } catch where FFmpegError.isCancellation(error) {
            throw CancellationError()
        } catch let truncation as SourceTruncation {
            throw ExportError.truncated(truncation, source: url)
        } catch {
            throw ExportError.sourceUnreadable(url, reason: "\(context): \(error)")
        }
    }

    /// Seeks so that the next read returns the key frame at or before `timestamp` (in ``timeBase``).
    /// - Throws: ``FFmpegError`` when the demuxer cannot seek there.
    func seek(toTimestamp timestamp: Int64) throws {
        try input.seek(streamIndex: index, toTimestamp: timestamp)
    }

    /// Calls `body` with the stream's codec parameters, keeping the file open while it runs: the parameters are a
    /// view into it and must not escape `body`.
    func withCodecParameters<Result>(_ body: (UnsafePointer<AVCodecParameters>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(codecParameters) }
    }

    /// The stream's codec (`codecpar->codec_id`).
    var codecID: AVCodecID { codecParameters.pointee.codec_id }

    /// Samples per audio packet the codec states (`frame_size`), and the sample rate (Hz); 0 when unstated.
    var audioFrameSize: (samples: Int, sampleRate: Int) {
        (Int(codecParameters.pointee.frame_size), Int(codecParameters.pointee.sample_rate))
    }

    /// The timestamp of the last key frame at or before `timestamp` (in ``timeBase``) in the demuxer's index
    /// (`avformat_index_get_entry_from_timestamp` with `AVSEEK_FLAG_BACKWARD`), or nil when the index has none.
    func indexedKeyFrameTimestamp(atOrBefore timestamp: Int64) -> Int64? {
        avformat_index_get_entry_from_timestamp(stream, timestamp, AVSEEK_FLAG_BACKWARD)?.pointee.timestamp
    }

    /// Makes a decoder for the stream (``Decoder/init(stream:threads:strict:characterEncoding:)``).
    /// - Throws: ``FFmpegError`` when FFmpeg has no usable decoder for it.
    func makeDecoder(threads: Int32, strict: Bool, characterEncoding: String? = nil) throws -> Decoder {
        try Decoder(stream: stream, threads: threads, strict: strict, characterEncoding: characterEncoding)
    }
}
