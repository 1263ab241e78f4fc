package import CMedia

extension Encoder {
    /// Allocates the text subtitle encoder `name` (`mov_text`, `subrip`, `ass`, `webvtt`) with packets in
    /// `timeBase` and the ASS script header `header` its events refer to (copied into `subtitle_header`, which the
    /// context frees); open it with ``open(options:)`` (``EncodingMuxer/addStream(_:options:)`` does).
    /// - Throws: `FFmpegError.encoderNotFound` when the linked FFmpeg lacks the encoder; `ENOMEM`.
    package convenience init(subtitleEncoderNamed name: String, timeBase: AVRational, header: String) throws {
        try self.init(name: name)
        pointer.pointee.time_base = timeBase
        let bytes = Array(header.utf8)
        guard let copy = av_mallocz(bytes.count + 1)?.assumingMemoryBound(to: UInt8.self) else {
            throw FFmpegError.posix(ENOMEM)
        }
        copy.update(from: bytes, count: bytes.count)
        pointer.pointee.subtitle_header = copy
        pointer.pointee.subtitle_header_size = Int32(bytes.count)
    }

    /// Encodes one text event into `packet` (`avcodec_encode_subtitle` over an `AVSubtitle` with one `SUBTITLE_ASS`
    /// rectangle), replacing its payload; timestamps are the caller's to set.
    ///
    /// - Parameter dialogue: the event in libavcodec's ASS form
    ///   `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`.
    /// - Throws: ``FFmpegError`` from the encoder (`EINVAL` for an event it cannot express), `ENOMEM`.
    package func encodeSubtitle(dialogue: String, into packet: Packet) throws {
        packet.unref()
        let capacity = 1 << 16
        var buffer = [UInt8](repeating: 0, count: capacity)
        let written: Int32 = try dialogue.withCString { text in
            guard let line = strdup(text) else { throw FFmpegError.posix(ENOMEM) }
            defer { free(line) }
            var rect = AVSubtitleRect()
            rect.type = SUBTITLE_ASS
            rect.ass = line
            return withUnsafeMutablePointer(to: &rect) { rectPointer in
                var rects: [UnsafeMutablePointer<AVSubtitleRect>?] = [rectPointer]
                return rects.withUnsafeMutableBufferPointer { list in
                    var subtitle = AVSubtitle()
                    subtitle.num_rects = 1
                    subtitle.rects = list.baseAddress
                    return buffer.withUnsafeMutableBufferPointer { out in
                        avcodec_encode_subtitle(pointer, out.baseAddress, Int32(capacity), &subtitle)
                    }
                }
            }
        }
        try FFmpegError.check(written, in: "avcodec_encode_subtitle")
        try FFmpegError.check(av_new_packet(packet.pointer, written), in: "av_new_packet")
        if written > 0, let data = packet.pointer.pointee.data {
            data.update(from: buffer, count: Int(written))
        }
    }
}
