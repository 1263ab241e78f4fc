package import CMedia

/// A value copy of a stream's `AVCodecParameters` (FFmpeg 5.1's fields), so that a stream's full description can
/// cross threads: a compressed sample carries it to a passthrough writer, an encoder's stream is described to a
/// live-stream sender's muxer on its own thread (`avcodec_parameters_copy`'s result, field by field). Plain data: no
/// FFmpeg allocation is held.
package struct CodecParameters: Sendable, Hashable {
    package var mediaType: Int32
    package var codecID: UInt32
    package var codecTag: UInt32
    package var extradata: [UInt8]
    package var format: Int32
    package var bitRate: Int64
    package var bitsPerCodedSample: Int32
    package var bitsPerRawSample: Int32
    package var profile: Int32
    package var level: Int32
    package var width: Int32
    package var height: Int32
    package var sampleAspectRatio: (num: Int32, den: Int32)
    package var fieldOrder: UInt32
    package var colorRange: UInt32
    package var colorPrimaries: UInt32
    package var colorTransfer: UInt32
    package var colorSpace: UInt32
    package var chromaLocation: UInt32
    package var videoDelay: Int32
    package var channelOrder: UInt32
    package var channelCount: Int32
    package var channelMask: UInt64
    package var sampleRate: Int32
    package var blockAlign: Int32
    package var frameSize: Int32
    package var initialPadding: Int32
    package var trailingPadding: Int32
    package var seekPreroll: Int32

    /// Copies `parameters`. A custom channel order (a per-channel map) is kept as its channel count only.
    package init(_ parameters: UnsafePointer<AVCodecParameters>) {
        let p = parameters.pointee
        mediaType = p.codec_type.rawValue
        codecID = p.codec_id.rawValue
        codecTag = p.codec_tag
        extradata = p.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, p.extradata_size)))) } ?? []
        format = p.format
        bitRate = p.bit_rate
        bitsPerCodedSample = p.bits_per_coded_sample
        bitsPerRawSample = p.bits_per_raw_sample
        profile = p.profile
        level = p.level
        width = p.width
        height = p.height
        sampleAspectRatio = (p.sample_aspect_ratio.num, p.sample_aspect_ratio.den)
        fieldOrder = p.field_order.rawValue
        colorRange = p.color_range.rawValue
        colorPrimaries = p.color_primaries.rawValue
        colorTransfer = p.color_trc.rawValue
        colorSpace = p.color_space.rawValue
        chromaLocation = p.chroma_location.rawValue
        videoDelay = p.video_delay
        channelOrder = p.ch_layout.order == AV_CHANNEL_ORDER_CUSTOM ? AV_CHANNEL_ORDER_UNSPEC.rawValue : p.ch_layout.order.rawValue
        channelCount = p.ch_layout.nb_channels
        channelMask = p.ch_layout.order == AV_CHANNEL_ORDER_NATIVE ? p.ch_layout.u.mask : 0
        sampleRate = p.sample_rate
        blockAlign = p.block_align
        frameSize = p.frame_size
        initialPadding = p.initial_padding
        trailingPadding = p.trailing_padding
        seekPreroll = p.seek_preroll
    }

    /// Writes these parameters into `parameters` (whose extradata and layout are replaced; the codec tag is left 0
    /// for the muxer to choose, as a stream copy does).
    /// - Throws: ``FFmpegError`` `ENOMEM` when the extradata cannot be allocated.
    package func apply(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws {
        parameters.pointee.codec_type = AVMediaType(rawValue: mediaType)
        parameters.pointee.codec_id = AVCodecID(rawValue: codecID)
        parameters.pointee.codec_tag = 0
        av_freep(&parameters.pointee.extradata)
        parameters.pointee.extradata_size = 0
        if !extradata.isEmpty {
            guard let buffer = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                throw FFmpegError.posix(ENOMEM)
            }
            let bytes = buffer.bindMemory(to: UInt8.self, capacity: extradata.count)
            extradata.withUnsafeBufferPointer { bytes.update(from: $0.baseAddress!, count: extradata.count) }
            parameters.pointee.extradata = bytes
            parameters.pointee.extradata_size = Int32(extradata.count)
        }
        parameters.pointee.format = format
        parameters.pointee.bit_rate = bitRate
        parameters.pointee.bits_per_coded_sample = bitsPerCodedSample
        parameters.pointee.bits_per_raw_sample = bitsPerRawSample
        parameters.pointee.profile = profile
        parameters.pointee.level = level
        parameters.pointee.width = width
        parameters.pointee.height = height
        parameters.pointee.sample_aspect_ratio = AVRational(num: sampleAspectRatio.num, den: sampleAspectRatio.den)
        parameters.pointee.field_order = AVFieldOrder(rawValue: fieldOrder)
        parameters.pointee.color_range = AVColorRange(rawValue: colorRange)
        parameters.pointee.color_primaries = AVColorPrimaries(rawValue: colorPrimaries)
        parameters.pointee.color_trc = AVColorTransferCharacteristic(rawValue: colorTransfer)
        parameters.pointee.color_space = AVColorSpace(rawValue: colorSpace)
        parameters.pointee.chroma_location = AVChromaLocation(rawValue: chromaLocation)
        parameters.pointee.video_delay = videoDelay
        av_channel_layout_uninit(&parameters.pointee.ch_layout)
        if channelCount > 0 {
            if channelOrder == AV_CHANNEL_ORDER_NATIVE.rawValue {
                av_channel_layout_from_mask(&parameters.pointee.ch_layout, channelMask)
            } else {
                parameters.pointee.ch_layout.order = AV_CHANNEL_ORDER_UNSPEC
                parameters.pointee.ch_layout.nb_channels = channelCount
            }
        }
        parameters.pointee.sample_rate = sampleRate
        parameters.pointee.block_align = blockAlign
        parameters.pointee.frame_size = frameSize
        parameters.pointee.initial_padding = initialPadding
        parameters.pointee.trailing_padding = trailingPadding
        parameters.pointee.seek_preroll = seekPreroll
    }

    package static func == (a: CodecParameters, b: CodecParameters) -> Bool {
        a.codecID == b.codecID && a.extradata == b.extradata && a.width == b.width && a.height == b.height
            && a.sampleRate == b.sampleRate && a.channelCount == b.channelCount && a.format == b.format
            && a.profile == b.profile && a.level == b.level
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(codecID)
        hasher.combine(extradata)
        hasher.combine(width)
        hasher.combine(height)
    }
}
