package import CMedia
import Composition

/// Everything an ``Encoder`` is told before `avcodec_open2`, as one value: the encoder, the picture or sample
/// format, the clock, the colour tags, rate control and the encoder's private options. Built by each engine from its
/// own settings (Export from `ExportSettings`, Capture from its session preset) and applied by
/// ``Encoder/init(configuration:)``, so no engine writes an `AVCodecContext` field by hand.
package struct EncoderConfiguration {
    /// A video encoder's picture and clock.
    package struct Video {
        /// Pixels.
        package var width: Int
        /// Pixels.
        package var height: Int
        package var pixelFormat: AVPixelFormat
        /// The clock frames are stamped in (`AVCodecContext.time_base`).
        package var timeBase: AVRational
        /// Frames per second (`AVCodecContext.framerate`), as a rational.
        package var frameRate: AVRational
        package var sampleAspectRatio = AVRational(num: 1, den: 1)
        /// Colour tags written into the stream's VUI / container (nil leaves them unspecified).
        package var color: ColorTags?
        /// Frames between key frames (nil: the encoder's default).
        package var keyFrameInterval: Int?
        /// The container's codec tag as a FourCC (e.g. `"hvc1"`), nil for the muxer's default.
        package var codecTag: String?
        /// HDR10 mastering display written as the stream's side data before the header (MP4/MOV `mdcv`, Matroska
        /// MasteringMetadata). The bitstream's SEI is the encoder's business (x265's `master-display` parameter).
        package var masteringDisplay: MasteringDisplay?
        /// HDR10 content light level written as the stream's side data (MP4/MOV `clli`).
        package var contentLightLevel: ContentLightLevel?

        /// A picture `width` × `height` pixels in `pixelFormat`, stamped in `timeBase` at `frameRate`.
        package init(width: Int, height: Int, pixelFormat: AVPixelFormat, timeBase: AVRational, frameRate: AVRational) {
            self.width = width
            self.height = height
            self.pixelFormat = pixelFormat
            self.timeBase = timeBase
            self.frameRate = frameRate
        }
    }

    /// An audio encoder's samples and clock (time base 1 / sample rate).
    package struct Audio {
        /// Samples per second.
        package var sampleRate: Int
        package var sampleFormat: AVSampleFormat
        /// Channels, laid out in FFmpeg's default order for that count (`av_channel_layout_default`).
        package var channelCount: Int

        /// `channelCount` channels of `sampleFormat` at `sampleRate` Hz.
        package init(sampleRate: Int, sampleFormat: AVSampleFormat, channelCount: Int) {
            self.sampleRate = sampleRate
            self.sampleFormat = sampleFormat
            self.channelCount = channelCount
        }
    }

    /// Video or audio.
    package enum Media {
        case video(Video)
        case audio(Audio)
    }

    /// The libavcodec encoder name (`libx264`, `aac`, …).
    package var encoderName: String
    package var media: Media
    /// Bits per second for average-bit-rate control; 0 lets the options (e.g. `crf`) decide.
    package var bitRate: Int64 = 0
    /// Encoder threads; 0 lets FFmpeg choose (one per core); nil keeps the encoder's default.
    package var threadCount: Int32?
    /// The encoder's private options (`preset`, `crf`, `x265-params`, …), all of which must be recognised.
    package var options: [String: String] = [:]

    /// A configuration for `encoderName` encoding `media`.
    package init(encoderName: String, media: Media) {
        self.encoderName = encoderName
        self.media = media
    }
}

/// The colour description of a picture (ITU-T H.273 code points, as FFmpeg names them).
package struct ColorTags: Hashable {
    package var range: AVColorRange
    package var primaries: AVColorPrimaries
    package var transfer: AVColorTransferCharacteristic
    package var matrix: AVColorSpace

    /// Tags with the given code points.
    package init(range: AVColorRange, primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic,
                 matrix: AVColorSpace) {
        self.range = range
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
    }

    /// FFmpeg's names of the primaries, transfer and matrix (`bt2020`, `arib-std-b67`, `bt2020nc`), as x265's
    /// `colorprim`, `transfer` and `colormatrix` parameters spell them too.
    package var names: (primaries: String, transfer: String, matrix: String) {
        (av_color_primaries_name(primaries).map { String(cString: $0) } ?? "unknown",
         av_color_transfer_name(transfer).map { String(cString: $0) } ?? "unknown",
         av_color_space_name(matrix).map { String(cString: $0) } ?? "unknown")
    }

    /// Limited-range BT.709 (HD SDR video).
    package static var bt709: ColorTags {
        ColorTags(range: AVCOL_RANGE_MPEG, primaries: AVCOL_PRI_BT709, transfer: AVCOL_TRC_BT709, matrix: AVCOL_SPC_BT709)
    }
}
