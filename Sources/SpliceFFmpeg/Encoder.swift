package import CMedia
import Composition

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
        Self.withLifecycleLock(codecName) { avcodec_free_context(&context) }
    }

    /// Encoders whose open and close must not overlap another instance's in the same process. SVT-AV1 keeps
    /// process-global state (the CPU topology it parses on open and frees on close, and tables filled on open) with no
    /// synchronisation: a test run crashed in its open (a memset through a null pointer) while other AV1 exports opened
    /// and closed beside it.
    private static let lifecycleSerialized: Set<String> = ["libsvtav1"]
    private static let lifecycleLock = Locked(())

    /// Runs `body` under the process-wide lifecycle lock when `codecName` needs it, else directly.
    private static func withLifecycleLock<Result>(_ codecName: String, _ body: () throws -> Result) rethrows -> Result {
        guard lifecycleSerialized.contains(codecName) else { return try body() }
        return try lifecycleLock.withLock { _ in try body() }
    }

    /// Allocates the encoder `configuration` names and applies it (not yet opened: ``EncodingMuxer/addStream(_:)``
    /// or ``open(options:)`` opens it with the configuration's options).
    /// - Throws: `FFmpegError.encoderNotFound` when the linked FFmpeg lacks the encoder; `ENOMEM`.
    package convenience init(configuration: EncoderConfiguration) throws {
        try self.init(name: configuration.encoderName)
        options = configuration.options
        let context = pointer
        context.pointee.bit_rate = configuration.bitRate
        if let threads = configuration.threadCount { context.pointee.thread_count = threads }
        switch configuration.media {
        case .video(let video):
            context.pointee.width = Int32(video.width)
            context.pointee.height = Int32(video.height)
            context.pointee.pix_fmt = video.pixelFormat
            context.pointee.time_base = video.timeBase
            context.pointee.framerate = video.frameRate
            context.pointee.sample_aspect_ratio = video.sampleAspectRatio
            if let color = video.color {
                context.pointee.color_range = color.range
                context.pointee.color_primaries = color.primaries
                context.pointee.color_trc = color.transfer
                context.pointee.colorspace = color.matrix
            }
            masteringDisplay = video.masteringDisplay
            contentLightLevel = video.contentLightLevel
            if let interval = video.keyFrameInterval { context.pointee.gop_size = Int32(clamping: interval) }
            if let tag = video.codecTag {
                context.pointee.codec_tag = tag.utf8.prefix(4).enumerated()
                    .reduce(0) { $0 | (UInt32($1.element) << (8 * UInt32($1.offset))) }
            }
        case .audio(let audio):
            context.pointee.sample_rate = Int32(audio.sampleRate)
            context.pointee.sample_fmt = audio.sampleFormat
            av_channel_layout_default(&context.pointee.ch_layout, Int32(audio.channelCount))
            context.pointee.time_base = AVRational(num: 1, den: Int32(audio.sampleRate))
        }
    }

    /// The HDR10 mastering display the output stream declares (``EncoderConfiguration/Video/masteringDisplay``).
    package private(set) var masteringDisplay: MasteringDisplay?
    /// The HDR10 content light level the output stream declares.
    package private(set) var contentLightLevel: ContentLightLevel?

    /// The private options ``init(configuration:)`` was given, applied when the encoder is opened.
    package private(set) var options: [String: String] = [:]

    /// The time base packets come out in (`AVCodecContext.time_base`).
    package var timeBase: AVRational { pointer.pointee.time_base }

    /// Samples per audio frame the opened encoder wants (`frame_size`; 0 when any size is accepted).
    package var frameSize: Int { Int(pointer.pointee.frame_size) }

    /// Samples an opened audio encoder puts before the first input sample (`initial_padding`: AAC's priming, 1024),
    /// at the encoder's sample rate; 0 for video.
    package var initialPadding: Int { Int(pointer.pointee.initial_padding) }

    /// The sample format of an audio encoder.
    package var sampleFormat: AVSampleFormat { pointer.pointee.sample_fmt }

    /// Opens the encoder (`avcodec_open2`) with its configuration's private options plus `options` (these win),
    /// such as `["preset": "medium", "crf": "23"]`.
    /// - Throws: `FFmpegError` from `avcodec_open2`, or `EINVAL` naming nothing when an option is not recognised
    ///   (unrecognised options are an error here, not silently ignored).
    package func open(options: [String: String] = [:]) throws {
        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for (key, value) in self.options.merging(options, uniquingKeysWith: { _, given in given }) { av_dict_set(&dictionary, key, value, 0) }
        let code = Self.withLifecycleLock(codecName) { avcodec_open2(pointer, pointer.pointee.codec, &dictionary) }
        try FFmpegError.check(code, in: "avcodec_open2")
        if av_dict_count(dictionary) > 0 { throw FFmpegError.posix(EINVAL) }
    }

    /// Sends a frame (`avcodec_send_frame`); nil starts draining.
    /// - Returns: false when the encoder is full (EAGAIN): receive packets first.
    package func send(_ frame: Frame?) throws -> Bool {
        let code = avcodec_send_frame(pointer, frame?.pointer)
        if code == cmedia_AVERROR_EAGAIN() { return false }
        if code == cmedia_AVERROR_EOF() { return true }
        try FFmpegError.check(code, in: "avcodec_send_frame")
        return true
    }

    /// Receives the next encoded packet (`avcodec_receive_packet`).
    package func receive(into packet: Packet) throws -> Output {
        let code = avcodec_receive_packet(pointer, packet.pointer)
        if code == cmedia_AVERROR_EAGAIN() { return .needsInput }
        if code == cmedia_AVERROR_EOF() { return .endOfStream }
        try FFmpegError.check(code, in: "avcodec_receive_packet")
        return .packet
    }
}
