internal import CMedia

extension Decoder {
    /// What one subtitle packet decodes to: its text events as ASS dialogue lines, and when they show relative to
    /// the packet's presentation time.
    package struct SubtitleEvent {
        /// One line per text rectangle, in libavcodec's ASS event form
        /// `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text` (every text decoder — SubRip, WebVTT,
        /// mov_text, ASS — produces this form); bitmap rectangles are left out.
        package var dialogueLines: [String]
        /// Milliseconds after the packet's presentation time at which the event starts showing.
        package var startDisplayTime: UInt32
        /// Milliseconds after the packet's presentation time at which it stops showing; nil when the decoder leaves
        /// it open (the packet's duration then says).
        package var endDisplayTime: UInt32?
    }

    /// Decodes one packet of a subtitle stream (`avcodec_decode_subtitle2`; the `AVSubtitle` is freed with
    /// `avsubtitle_free` before returning, only Swift strings leave).
    /// - Returns: the event, or nil when the packet holds none (an empty sample that ends the previous cue).
    /// - Throws: ``FFmpegError`` from the decoder (e.g. `AVERROR_INVALIDDATA` for malformed text).
    package func decodeSubtitle(_ packet: Packet) throws -> SubtitleEvent? {
        var subtitle = AVSubtitle()
        var gotSubtitle: Int32 = 0
        try FFmpegError.check(avcodec_decode_subtitle2(pointer, &subtitle, &gotSubtitle, packet.pointer),
                              in: "avcodec_decode_subtitle2")
        guard gotSubtitle != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        var lines: [String] = []
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects?[index], rect.pointee.type == SUBTITLE_ASS, let ass = rect.pointee.ass else {
                continue
            }
            lines.append(String(cString: ass))
        }
        guard !lines.isEmpty else { return nil }
        let end = subtitle.end_display_time
        return SubtitleEvent(
            dialogueLines: lines, startDisplayTime: subtitle.start_display_time,
            endDisplayTime: end == 0 || end == UInt32.max ? nil : end)
    }

    /// The ASS script header (`[Script Info]`, `[V4+ Styles]`, `[Events]` format line) a text subtitle decoder states
    /// for its events (`AVCodecContext.subtitle_header`), or nil when it states none.
    package var subtitleHeader: String? {
        guard let header = pointer.pointee.subtitle_header, pointer.pointee.subtitle_header_size > 0 else { return nil }
        let bytes = UnsafeBufferPointer(start: header, count: Int(pointer.pointee.subtitle_header_size))
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
