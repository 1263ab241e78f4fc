package import CMedia

/// Owns a decoding `AVCodecContext` for one stream (`avcodec_alloc_context3` / `avcodec_free_context`).
///
/// Wraps FFmpeg's send/receive loop: "needs more input" and "end of stream" are results, not errors.
package final class Decoder {
    package let pointer: UnsafeMutablePointer<AVCodecContext>
    /// The stream's time base; decoded frame timestamps are in it.
    package let timeBase: AVRational
    /// FFmpeg's codec name, for error messages.
    package let codecName: String

    package enum Output { case frame, needsInput, endOfStream }

    /// Opens a decoder for `stream` (`avcodec_find_decoder`, `avcodec_parameters_to_context`, `avcodec_open2`).
    ///
    /// - Parameters:
    ///   - threads: decoder threads; 0 lets FFmpeg choose (one per core).
    ///   - strict: when true, a picture or sound with decode errors is reported (`AV_EF_EXPLODE`:
    ///     `AVERROR_INVALIDDATA`) instead of being concealed (e.g. a JPEG cut off before its end marker, which the
    ///     decoder would otherwise pad with grey).
    ///   - characterEncoding: for a text subtitle stream whose text is not UTF-8, iconv's name of its encoding
    ///     (`CP1252`): libavcodec converts each packet's text before decoding it (`sub_charenc`).
    /// - Throws: `FFmpegError.decoderNotFound` when the linked FFmpeg has no decoder for the codec, or the
    ///   `FFmpegError` of the failing call (`avcodec_open2` refuses an encoding iconv does not know).
    package init(stream: UnsafeMutablePointer<AVStream>, threads: Int32 = 0, strict: Bool = false,
                 characterEncoding: String? = nil) throws {
        MediaLibrary.installLogRouting()
        guard let parameters = stream.pointee.codecpar else { throw FFmpegError.invalidData }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(rawValue: cmedia_AVERROR_DECODER_NOT_FOUND())
        }
        guard let context = avcodec_alloc_context3(codec) else { throw FFmpegError.posix(ENOMEM) }
        pointer = context
        timeBase = stream.pointee.time_base
        codecName = String(cString: codec.pointee.name)
        try FFmpegError.check(avcodec_parameters_to_context(context, parameters), in: "avcodec_parameters_to_context")
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.thread_count = threads
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        if strict { context.pointee.err_recognition |= AV_EF_EXPLODE }
        if let characterEncoding {
            try FFmpegError.check(av_opt_set(context, "sub_charenc", characterEncoding, 0), in: "av_opt_set(sub_charenc)")
        }
        try FFmpegError.check(avcodec_open2(context, codec, nil), in: "avcodec_open2")
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    /// Sends a packet (`avcodec_send_packet`); nil sends end-of-stream (drain).
    /// - Returns: false when the decoder is full (EAGAIN): receive frames first, then send the packet again.
    package func send(_ packet: Packet?) throws -> Bool {
        let code = avcodec_send_packet(pointer, packet?.pointer)
        if code == cmedia_AVERROR_EAGAIN() { return false }
        if code == cmedia_AVERROR_EOF() { return true }  // already draining: nothing more to send
        try FFmpegError.check(code, in: "avcodec_send_packet")
        return true
    }

    /// Receives the next decoded frame into `frame` (`avcodec_receive_frame`).
    package func receive(into frame: Frame) throws -> Output {
        let code = avcodec_receive_frame(pointer, frame.pointer)
        if code == cmedia_AVERROR_EAGAIN() { return .needsInput }
        if code == cmedia_AVERROR_EOF() { return .endOfStream }
        try FFmpegError.check(code, in: "avcodec_receive_frame")
        return .frame
    }

    /// Drops buffered frames after a seek (`avcodec_flush_buffers`).
    package func flush() { avcodec_flush_buffers(pointer) }

    /// Samples per second of an audio decoder (0 when the stream does not say).
    package var sampleRate: Int { Int(pointer.pointee.sample_rate) }

    /// The sample format (`AVSampleFormat` raw value) an audio decoder outputs.
    package var sampleFormat: Int32 { pointer.pointee.sample_fmt.rawValue }

    /// The audio channel layout, or FFmpeg's default order for its channel count (at least 1) when the stream's
    /// order is unspecified (e.g. PCM written with layout "unknown"). The caller owns the copy
    /// (`av_channel_layout_uninit`).
    package var channelLayoutOrDefault: AVChannelLayout {
        var layout = AVChannelLayout()
        let channels = Int32(max(1, Int(pointer.pointee.ch_layout.nb_channels)))
        if pointer.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&layout, channels)
        } else {
            av_channel_layout_copy(&layout, &pointer.pointee.ch_layout)
        }
        return layout
    }
}
