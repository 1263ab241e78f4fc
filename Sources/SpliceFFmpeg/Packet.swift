package import CMedia

/// Owns one `AVPacket` (compressed data of one stream sample plus its timestamps).
///
/// Wraps `av_packet_alloc` / `av_packet_free`. The packet is reused across reads: ``InputFile/readPacket(into:)``
/// fills it, ``unref()`` drops the payload reference in between. Confined to one worker; not `Sendable`.
package final class Packet {
    /// The packet. Non-nil for the owner's lifetime; freed only by `deinit`.
    package let pointer: UnsafeMutablePointer<AVPacket>

    /// An empty packet (`av_packet_alloc`).
    ///
    /// - Throws: ``FFmpegError`` `ENOMEM` when FFmpeg cannot allocate it.
    package init() throws {
        guard let packet = av_packet_alloc() else { throw FFmpegError.posix(ENOMEM) }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// Releases the payload and resets the fields to their defaults (`av_packet_unref`); the packet can be refilled.
    package func unref() {
        av_packet_unref(pointer)
    }

    /// Exchanges the contents (payload reference, timestamps, flags, side data) of this packet and `other`; each
    /// owner keeps its own `AVPacket` allocation. Used to hold one packet back while reading the next.
    package func swapContents(with other: Packet) {
        let mine = pointer.pointee
        pointer.pointee = other.pointer.pointee
        other.pointer.pointee = mine
    }

    /// The index of the stream the packet belongs to (`AVPacket.stream_index`).
    package var streamIndex: Int { Int(pointer.pointee.stream_index) }

    /// Presentation timestamp in the stream's time base, or nil when unset (`AV_NOPTS_VALUE`).
    package var presentationTimestamp: Int64? {
        pointer.pointee.pts == cmedia_AV_NOPTS_VALUE() ? nil : pointer.pointee.pts
    }

    /// Decoding timestamp in the stream's time base, or nil when unset (`AV_NOPTS_VALUE`).
    package var decodingTimestamp: Int64? {
        pointer.pointee.dts == cmedia_AV_NOPTS_VALUE() ? nil : pointer.pointee.dts
    }

    /// Duration in the stream's time base (0 when unknown).
    package var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }

    /// The payload bytes (a copy).
    package var data: [UInt8] {
        guard let bytes = pointer.pointee.data, pointer.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(pointer.pointee.size)))
    }

    /// True for a key frame (`AV_PKT_FLAG_KEY`).
    package var isKeyFrame: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// True when the demuxer marked the packet to be decoded but not shown (`AV_PKT_FLAG_DISCARD`, e.g. samples
    /// before an edit list's start).
    package var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }

    /// True when the demuxer marked the packet incomplete (`AV_PKT_FLAG_CORRUPT`: e.g. the file ends inside it).
    package var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }

    /// Payload bytes (`AVPacket.size`).
    package var size: Int { Int(max(0, pointer.pointee.size)) }

    /// The `AV_PKT_DATA_SKIP_SAMPLES` side data: samples to drop from the start of this packet's decoded audio and
    /// from its end (little-endian 32-bit values at offsets 0 and 4), nil when absent.
    package var skipSamples: (start: Int64, end: Int64)? {
        var size = 0
        guard let side = av_packet_get_side_data(pointer, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 else { return nil }
        func littleEndian32(_ bytes: UnsafePointer<UInt8>) -> UInt32 {
            UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        }
        return (Int64(littleEndian32(side)), Int64(littleEndian32(side + 4)))
    }

    /// Sets the presentation and decoding timestamps and the duration (in the time base the packet is written in).
    package func setTiming(presentation: Int64, decoding: Int64, duration: Int64) {
        pointer.pointee.pts = presentation
        pointer.pointee.dts = decoding
        pointer.pointee.duration = duration
    }

    /// Readies a copied packet for another file: assigns it to output stream `index` and forgets its byte position
    /// in the source (`pos = -1`).
    package func prepareForMuxing(stream index: Int) {
        pointer.pointee.stream_index = Int32(index)
        pointer.pointee.pos = -1
    }

    /// Readies a copied packet for output stream `index` of another file whose time base is `destination`: its
    /// timestamps and duration converted from `source` (a missing decoding time becomes the presentation time, a
    /// missing presentation time 0), then ``prepareForMuxing(stream:)``. The stream copies' one restamping rule.
    package func prepareForMuxing(stream index: Int, from source: AVRational, to destination: AVRational) {
        let pts = av_rescale_q(presentationTimestamp ?? 0, source, destination)
        let dts = av_rescale_q(decodingTimestamp ?? presentationTimestamp ?? 0, source, destination)
        setTiming(presentation: pts, decoding: dts, duration: av_rescale_q(duration, source, destination))
        prepareForMuxing(stream: index)
    }

    /// Converts the timestamps and duration from time base `source` to `destination` (wraps `av_packet_rescale_ts`).
    package func rescaleTimestamps(from source: AVRational, to destination: AVRational) {
        av_packet_rescale_ts(pointer, source, destination)
    }
}
