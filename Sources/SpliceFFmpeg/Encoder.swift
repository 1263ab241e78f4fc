package import CMedia

/// Owns an encoding `AVCodecContext` (`avcodec_alloc_context3` / `avcodec_free_context`).
package final class Encoder {
    package let pointer: UnsafeMutablePointer<AVCodecContext>
    package let codecName: String

    package enum Output { case packet, needsInput, endOfStream }

    /// Allocates a context for the encoder named `name` (e.g. `libx264`, `aac`); configure ``pointer`` then call
    /// ``open(options:)``.
    /// - Throws: `FFmpegError.encoderNotFound` when the linked FFmpeg lacks the encoder.
    package init(name: String) throws {
        MediaLibrary.installLogRouting()
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw FFmpegError(rawValue: cmedia_AVERROR_ENCODER_NOT_FOUND())
        }
        guard let context = avcodec_alloc_context3(codec) else { throw FFmpegError.posix(ENOMEM) }
        pointer = context
        codecName = name
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    /// Opens the encoder (`avcodec_open2`) with private options such as `["preset": "medium", "crf": "23"]`.
    /// - Throws: `FFmpegError` from `avcodec_open2`, or `EINVAL` naming nothing when an option is not recognised
    ///   (unrecognised options are an error here, not silently ignored).
    package func open(options: [String: String]) throws {
        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        try FFmpegError.check(avcodec_open2(pointer, pointer.pointee.codec, &dictionary))
        if av_dict_count(dictionary) > 0 { throw FFmpegError.posix(EINVAL) }
    }

    /// Sends a frame (`avcodec_send_frame`); nil starts draining.
    /// - Returns: false when the encoder is full (EAGAIN): receive packets first.
    package func send(_ frame: Frame?) throws -> Bool {
        let code = avcodec_send_frame(pointer, frame?.pointer)
        if code == cmedia_AVERROR_EAGAIN() { return false }
        if code == cmedia_AVERROR_EOF() { return true }
        try FFmpegError.check(code)
        return true
    }

    /// Receives the next encoded packet (`avcodec_receive_packet`).
    package func receive(into packet: Packet) throws -> Output {
        let code = avcodec_receive_packet(pointer, packet.pointer)
        if code == cmedia_AVERROR_EAGAIN() { return .needsInput }
        if code == cmedia_AVERROR_EOF() { return .endOfStream }
        try FFmpegError.check(code)
        return .packet
    }
}
