import SpliceFFmpeg
internal import CMedia
import Composition

/// A Swift-value snapshot of one `AVStream` after `avformat_find_stream_info`: what the container and codec
/// parameters state, before any packet is scanned. Built once per stream by ``AssetProbe``.
struct StreamInfo {
    /// Container stream index (0-based).
    var index: Int
    /// The media type from `codecpar->codec_type`.
    var mediaType: MediaType
    /// `codecpar->codec_id`.
    var codecID: AVCodecID
    /// The codec descriptor's name (`h264`, `aac`, …), or `"unknown"` as ffprobe prints a stream with no codec id.
    var codecName: String
    /// True when the linked libavcodec has a decoder for ``codecID`` (`avcodec_find_decoder`).
    var hasDecoder: Bool
    /// The stream time base (`num/den` seconds per tick).
    var timeBase: AVRational
    /// `start_time` in ticks, when set.
    var startTime: Int64?
    /// `duration` in ticks, when set.
    var duration: Int64?
    /// `codecpar->bit_rate` in bits per second, when stated (> 0).
    var bitRate: Int?
    // Video.
    var width: Int
    var height: Int
    var pixelAspectRatio: PixelAspectRatio
    var pixelFormat: Int32
    /// `codecpar->format` (pixel or sample format; −1 when unknown).
    var rawFormat: Int32
    var color: ColorProperties
    var displayMatrix: [Int32]?
    var averageFrameRate: AVRational
    // Audio.
    var sampleRate: Int
    var channelCount: Int
    var channelLayout: String
    var sampleFormat: String
    // Any track.
    /// The `language` tag (ISO 639-2), nil when absent or `und`.
    var language: String?
    /// The `title` tag (the track's name), nil when absent.
    var title: String?
    /// Every tag of the stream (`AVStream.metadata`: `language`, `handler_name`, `title`, `vendor_id`, …), in
    /// FFmpeg's order.
    var metadata: [(key: String, value: String)]
    /// `AVStream.disposition` (`AV_DISPOSITION_DEFAULT`, `AV_DISPOSITION_FORCED`, …).
    var disposition: Int32

    /// True when the codec parameters are complete enough to decode: a picture size and pixel format for video, a
    /// sample rate, channel count and sample format for audio. `avformat_find_stream_info` leaves them unset when it
    /// could not decode anything of the stream (garbage, or a file truncated before the stream's data).
    var hasParameters: Bool {
        switch mediaType {
        case .video: return width > 0 && height > 0 && pixelFormat >= 0
        case .audio: return sampleRate > 0 && channelCount > 0 && rawFormat >= 0
        default: return true
        }
    }

    /// Reads the stream's facts. `format` is the demuxer context, used by `av_guess_sample_aspect_ratio`.
    init(stream: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>) {
        let parameters = stream.pointee.codecpar.pointee
        index = Int(stream.pointee.index)
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: mediaType = .video
        case AVMEDIA_TYPE_AUDIO: mediaType = .audio
        case AVMEDIA_TYPE_SUBTITLE: mediaType = .subtitle
        case AVMEDIA_TYPE_DATA, AVMEDIA_TYPE_ATTACHMENT: mediaType = .data
        default: mediaType = .unknown
        }
        codecID = parameters.codec_id
        if let descriptor = avcodec_descriptor_get(parameters.codec_id) {
            codecName = String(cString: descriptor.pointee.name)
        } else {
            codecName = "unknown"
        }
        hasDecoder = parameters.codec_id != AV_CODEC_ID_NONE && avcodec_find_decoder(parameters.codec_id) != nil
        timeBase = stream.pointee.time_base
        startTime = stream.pointee.start_time == cmedia_AV_NOPTS_VALUE() ? nil : stream.pointee.start_time
        duration = stream.pointee.duration == cmedia_AV_NOPTS_VALUE() || stream.pointee.duration <= 0
            ? nil : stream.pointee.duration
        bitRate = parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil

        width = Int(max(0, parameters.width))
        height = Int(max(0, parameters.height))
        let ratio = av_guess_sample_aspect_ratio(format, stream, nil)
        pixelAspectRatio = StreamInfo.reduced(ratio)
        pixelFormat = parameters.format
        rawFormat = parameters.format
        color = mediaType == .video ? StreamInfo.colorProperties(parameters) : ColorProperties()
        if mediaType == .video { StreamInfo.readHDRMetadata(of: stream, into: &color) }
        displayMatrix = cmedia_av_stream_get_display_matrix(stream).map { Array(UnsafeBufferPointer(start: $0, count: 9)) }
        averageFrameRate = stream.pointee.avg_frame_rate

        func tag(_ key: String) -> String? {
            guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        language = tag("language").flatMap { $0 == "und" ? nil : $0 }
        title = tag("title")
        metadata = MetadataDictionary.entries(stream.pointee.metadata)
        // Timed metadata: Splice's own track (SpliceFFmpeg's TimedMetadataTrack: text, but not subtitles, so a
        // composition does not show it) and QuickTime's boxed metadata (`mebx`), which libavformat reads as data.
        if mediaType == .subtitle, codecID == AV_CODEC_ID_MOV_TEXT, tag("handler_name") == TimedMetadataTrack.handlerName {
            mediaType = .metadata
        }
        if mediaType == .data, parameters.codec_tag == TimedMetadataTrack.boxedMetadataTag { mediaType = .metadata }
        disposition = stream.pointee.disposition

        sampleRate = Int(max(0, parameters.sample_rate))
        channelCount = Int(max(0, parameters.ch_layout.nb_channels))
        channelLayout = mediaType == .audio ? StreamInfo.layoutName(parameters.ch_layout) : ""
        sampleFormat = mediaType == .audio
            ? av_get_sample_fmt_name(AVSampleFormat(rawValue: parameters.format)).map { String(cString: $0) } ?? "unknown"
            : ""
    }

    /// FFmpeg's name of the decoded pixel format (`av_get_pix_fmt_name`), or `"unknown"`.
    var pixelFormatName: String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: pixelFormat)).map { String(cString: $0) } ?? "unknown"
    }

    /// A ratio reduced to lowest terms; 0/x, x/0 or negative ("unknown") gives square pixels.
    static func reduced(_ ratio: AVRational) -> PixelAspectRatio {
        guard ratio.num > 0, ratio.den > 0 else { return .square }
        let x = Int(Int.greatestCommonDivisor(Int(ratio.num), Int(ratio.den)))
        return PixelAspectRatio(horizontalSpacing: Int(ratio.num) / x, verticalSpacing: Int(ratio.den) / x)
    }

    /// The layout's FFmpeg name (`av_channel_layout_describe`). An unspecified order (a file that states only a
    /// channel count, e.g. PCM with layout "unknown") gets the default layout for the count
    /// (`av_channel_layout_default`: 1 → mono, 2 → stereo, 6 → 5.1).
    static func layoutName(_ layout: AVChannelLayout) -> String {
        var described = layout
        var fallback = AVChannelLayout()
        defer { av_channel_layout_uninit(&fallback) }
        if layout.order == AV_CHANNEL_ORDER_UNSPEC, layout.nb_channels > 0 {
            av_channel_layout_default(&fallback, layout.nb_channels)
            described = fallback
        }
        var buffer = [CChar](repeating: 0, count: 128)
        let written = buffer.withUnsafeMutableBufferPointer { out in
            withUnsafePointer(to: &described) { av_channel_layout_describe($0, out.baseAddress, out.count) }
        }
        guard written > 0 else { return "unknown" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Range, primaries, transfer, matrix (FFmpeg's names) and bits per component.
    static func colorProperties(_ parameters: AVCodecParameters) -> ColorProperties {
        let formatName = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) } ?? ""
        let range: ColorProperties.Range
        switch parameters.color_range {
        case AVCOL_RANGE_MPEG: range = .limited
        case AVCOL_RANGE_JPEG: range = .full
        default: range = formatName.hasPrefix("yuvj") ? .full : .unspecified  // yuvj* formats are full range by definition
        }
        var depth = 8
        if let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format)), descriptor.pointee.nb_components > 0 {
            depth = Int(descriptor.pointee.comp.0.depth)
        } else if parameters.bits_per_raw_sample > 0 {
            depth = Int(parameters.bits_per_raw_sample)
        }
        return ColorProperties(
            range: range,
            primaries: av_color_primaries_name(parameters.color_primaries).map { String(cString: $0) } ?? "unknown",
            transfer: av_color_transfer_name(parameters.color_trc).map { String(cString: $0) } ?? "unknown",
            matrix: av_color_space_name(parameters.color_space).map { String(cString: $0) } ?? "unknown",
            bitDepth: depth)
    }

    /// The container's HDR10 static metadata (`mdcv` / `clli` boxes, Matroska's MasteringMetadata), which FFmpeg
    /// exposes as stream side data. Files that carry it only in the HEVC SEI show it on the decoded pictures
    /// instead (``AssetProbe`` reads the first one).
    static func readHDRMetadata(of stream: UnsafeMutablePointer<AVStream>, into color: inout ColorProperties) {
        var size = 0
        if let data = cmedia_av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &size),
           size >= MemoryLayout<AVMasteringDisplayMetadata>.size {
            color.masteringDisplay = MasteringDisplay(UnsafeRawPointer(data).loadUnaligned(as: AVMasteringDisplayMetadata.self))
        }
        if let data = cmedia_av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size),
           size >= MemoryLayout<AVContentLightMetadata>.size {
            color.contentLightLevel = ContentLightLevel(UnsafeRawPointer(data).loadUnaligned(as: AVContentLightMetadata.self))
        }
    }
}
