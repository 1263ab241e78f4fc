import SpliceFFmpeg
import Export
import Composition
import Foundation
internal import CMedia

/// The MD5 of one decoded frame's raw data: one line of a `framemd5`-style log, for exact regression checks of
/// lossless paths (a changed pixel or sample changes the line).
///
/// Hashes are computed with libavutil's MD5 (`av_md5_*`) over the frame's data packed without padding, as FFmpeg's
/// `framemd5` muxer sees a `rawvideo` / PCM packet: for pictures `av_image_copy_to_buffer` with alignment 1, for
/// sound the samples as decoded (packed formats: interleaved; planar formats: plane after plane). For pictures and
/// packed sound the hash therefore equals the one `ffmpeg -i file -f framemd5 -` prints when it keeps the decoded
/// format (e.g. FFV1 `bgr0`, PCM `s16`).
public struct FrameDigest: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stream's index in the file.
    public var streamIndex: Int
    /// The frame's presentation timestamp, in the stream's time base (see ``FrameDigestLog/Stream/timeBase``).
    public var timestamp: Int64
    /// The frame's duration in the same time base (0 when the file does not say).
    public var duration: Int64
    /// Bytes hashed.
    public var size: Int
    /// The MD5 as 32 lowercase hexadecimal digits.
    public var md5: String

    /// A digest line's values.
    public init(streamIndex: Int, timestamp: Int64, duration: Int64, size: Int, md5: String) {
        self.streamIndex = streamIndex
        self.timestamp = timestamp
        self.duration = duration
        self.size = size
        self.md5 = md5
    }

    /// The `framemd5` line: `stream, dts, pts, duration, size, hash`, with the widths FFmpeg uses
    /// (dts = pts: decoded frames have no decoding order of their own).
    public var description: String {
        func padded(_ value: CustomStringConvertible, _ width: Int) -> String {
            let text = value.description
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
        return "\(streamIndex), \(padded(timestamp, 10)), \(padded(timestamp, 10)), \(padded(duration, 8)), "
            + "\(padded(size, 8)), \(md5)"
    }

    /// The MD5 of `bytes` as 32 lowercase hexadecimal digits, computed by libavutil (`av_md5_*`).
    /// - Throws: ``ExportError/renderingFailed(stage:reason:)`` if the hash context cannot be allocated.
    public static func md5(of bytes: [UInt8]) throws -> String {
        do {
            return try bytes.withUnsafeBytes { try MD5.hex(of: $0) }
        } catch {
            throw ExportError.renderingFailed(stage: "hashing", reason: "\(error)")
        }
    }
}

/// Every decoded video and audio frame of a media file, hashed: a `framemd5`-style regression log.
///
/// ```swift
/// let log = try await FrameDigestLog(contentsOf: URL(fileURLWithPath: "out.mkv"))
/// print(log.text)   // "#format: frame checksums" … one line per frame
/// ```
public struct FrameDigestLog: Sendable, Hashable {
    /// One hashed stream.
    public struct Stream: Sendable, Hashable, Codable {
        /// The stream's index in the file.
        public var index: Int
        /// `.video` or `.audio`.
        public var mediaType: MediaType
        /// The unit of the timestamps: one tick is `timeBase` seconds (e.g. 1/1000 for Matroska).
        public var timeBase: MediaTime
        /// The decoded format: the pixel format and size (`"bgr0 320x240"`) or the sample format, rate and
        /// channel count (`"s16 48000 Hz 2 ch"`).
        public var format: String
    }

    /// The hashed streams, in file order.
    public var streams: [Stream]
    /// One digest per decoded frame, in decoding order (streams interleaved as in the file).
    public var frames: [FrameDigest]

    /// Decodes every video and audio stream of the file at `url` from its start and hashes each frame.
    ///
    /// Blocking work runs on a thread of its own, never on Swift's cooperative pool. The whole file is decoded:
    /// meant for the short files of tests.
    /// - Parameter url: a `file:` URL of a media file.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` naming the file and the cause (cannot open, no decoder,
    ///   a decoding error).
    public init(contentsOf url: URL) async throws {
        self = try await WorkerThread.run(name: "splice.framemd5") { try FrameDigestLog.decode(url) }
    }

    /// A log from its parts.
    public init(streams: [Stream], frames: [FrameDigest]) {
        self.streams = streams
        self.frames = frames
    }

    /// The log as text, in the shape of FFmpeg's `framemd5` output: `#` header lines per stream (time base, media
    /// type, decoded format), then one ``FrameDigest/description`` line per frame, each line ending in a newline.
    public var text: String {
        var lines = ["#format: frame checksums", "#version: 2", "#hash: MD5"]
        for stream in streams {
            lines.append("#tb \(stream.index): \(stream.timeBase.value)/\(stream.timeBase.timescale)")
            lines.append("#media_type \(stream.index): \(stream.mediaType == .video ? "video" : "audio")")
            lines.append("#format \(stream.index): \(stream.format)")
        }
        lines.append("#stream#, dts,        pts, duration,     size, hash")
        lines += frames.map(\.description)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func decode(_ url: URL) throws -> FrameDigestLog {
        let input: InputFile
        do {
            input = try InputFile.open(url)
        } catch let error as AssetLoadingError {
            throw ExportError.sourceUnreadable(url, reason: error.description)
        }
        var decoders: [Int: Decoder] = [:]
        var streams: [Stream] = []
        for index in 0..<input.streamCount {
            let stream = input.stream(at: index)
            let type = stream.pointee.codecpar.pointee.codec_type
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO else {
                stream.pointee.discard = AVDISCARD_ALL
                continue
            }
            do {
                decoders[index] = try Decoder(stream: stream, threads: 1)
            } catch {
                throw ExportError.sourceUnreadable(url, reason: "no decoder for stream \(index): \(error)")
            }
            let timeBase = stream.pointee.time_base
            streams.append(Stream(
                index: index, mediaType: type == AVMEDIA_TYPE_VIDEO ? .video : .audio,
                timeBase: MediaTime(value: Int64(timeBase.num), timescale: timeBase.den), format: ""))
        }
        let packet = try Packet()
        let frame = try Frame()
        let md5 = try MD5()
        var frames: [FrameDigest] = []
        var formats: [Int: String] = [:]

        func receiveAll(from index: Int) throws {
            guard let decoder = decoders[index] else { return }
            while true {
                let result: Decoder.Output
                do {
                    result = try decoder.receive(into: frame)
                } catch {
                    throw ExportError.sourceUnreadable(url, reason: "decoding stream \(index): \(error)")
                }
                guard result == .frame else { return }
                defer { frame.unref() }
                let (size, format) = try hash(frame, into: md5)
                if formats[index] == nil { formats[index] = format }
                let timestamp = frame.bestEffortTimestamp != cmedia_AV_NOPTS_VALUE() ? frame.bestEffortTimestamp : frame.pts
                frames.append(FrameDigest(
                    streamIndex: index, timestamp: timestamp, duration: cmedia_AVFrame_duration(frame.pointer),
                    size: size, md5: md5.finalizeHex()))
            }
        }

        while true {
            let more: Bool
            do {
                more = try input.readPacket(into: packet)
            } catch {
                throw ExportError.sourceUnreadable(url, reason: "reading: \(error)")
            }
            guard more else { break }
            defer { packet.unref() }
            let index = packet.streamIndex
            guard let decoder = decoders[index] else { continue }
            while true {
                let accepted: Bool
                do {
                    accepted = try decoder.send(packet)
                } catch {
                    throw ExportError.sourceUnreadable(url, reason: "decoding stream \(index): \(error)")
                }
                try receiveAll(from: index)
                if accepted { break }
            }
        }
        for index in decoders.keys.sorted() {
            _ = try? decoders[index]?.send(nil)
            try receiveAll(from: index)
        }
        for i in streams.indices { streams[i].format = formats[streams[i].index] ?? "" }
        return FrameDigestLog(streams: streams, frames: frames)
    }

    /// Feeds the frame's packed data to `md5`; returns the byte count and a description of the format.
    private static func hash(_ frame: Frame, into md5: MD5) throws -> (Int, String) {
        // The digest hashes the frame's raw planes exactly as FFmpeg's framemd5 muxer does, so it reads the AVFrame
        // layout itself (format, planes, line sizes) rather than through the owner's typed members.
        let pointer = frame.pointer
        if pointer.pointee.nb_samples > 0 {
            let format = AVSampleFormat(rawValue: pointer.pointee.format)
            let channels = Int(pointer.pointee.ch_layout.nb_channels)
            let samples = Int(pointer.pointee.nb_samples)
            let bytesPerSample = Int(av_get_bytes_per_sample(format))
            let planar = av_sample_fmt_is_planar(format) != 0
            let planeBytes = samples * bytesPerSample * (planar ? 1 : channels)
            for plane in 0..<(planar ? channels : 1) {
                guard let data = pointer.pointee.extended_data[plane] else { continue }
                md5.update(data, count: planeBytes)
            }
            let name = av_get_sample_fmt_name(format).map { String(cString: $0) } ?? "unknown"
            return (planeBytes * (planar ? channels : 1), "\(name) \(pointer.pointee.sample_rate) Hz \(channels) ch")
        }
        let format = AVPixelFormat(rawValue: pointer.pointee.format)
        let width = pointer.pointee.width, height = pointer.pointee.height
        guard let buffer = try frame.packedPicture() else {
            throw ExportError.renderingFailed(stage: "hashing a frame", reason: "unsupported picture format \(format.rawValue)")
        }
        let size = buffer.count
        buffer.withUnsafeBytes { md5.update($0.baseAddress!, count: size) }
        let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
        return (size, "\(name) \(width)x\(height)")
    }
}
