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
    package var duration: Int64 { pointer.pointee.duration }

    /// True for a key frame (`AV_PKT_FLAG_KEY`).
    package var isKeyFrame: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// True when the demuxer marked the packet to be decoded but not shown (`AV_PKT_FLAG_DISCARD`, e.g. samples
    /// before an edit list's start).
    package var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }
}
