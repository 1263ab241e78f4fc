import Composition
import SpliceFFmpeg

/// What the data of a ``SampleBuffer`` is, as AVFoundation's `CMFormatDescription`: the media type, the codec (with
/// its out-of-band setup, the extradata) and the picture or sound parameters.
public struct FormatDescription: Sendable, Hashable {
    /// Video or audio.
    public var mediaType: MediaType
    /// FFmpeg's codec name: the stored codec for compressed samples (`h264`, `hevc`, `aac`, …), `rawvideo` or
    /// `pcm_f32le` / `pcm_s16le` for decoded ones.
    public var codecName: String
    /// The codec's out-of-band setup as the container stores it (H.264: the `avcC` record with SPS and PPS; AAC:
    /// the AudioSpecificConfig), bytes; empty when there is none.
    public var extradata: [UInt8]
    /// Units per second of the sample times (the stream's time base denominator).
    public var timeScale: Int32
    /// Picture size in pixels (video).
    public var dimensions: Size?
    /// Samples per second (audio), Hz.
    public var sampleRate: Int?
    /// Channels (audio).
    public var channelCount: Int?
    /// Everything FFmpeg knows of the stored codec's setup (compressed samples only), so that a passthrough writer
    /// can describe the stream exactly as the source did.
    package var codecParameters: CodecParameters?

    /// A description with the given parts.
    public init(mediaType: MediaType, codecName: String, extradata: [UInt8] = [], timeScale: Int32,
                dimensions: Size? = nil, sampleRate: Int? = nil, channelCount: Int? = nil) {
        self.mediaType = mediaType
        self.codecName = codecName
        self.extradata = extradata
        self.timeScale = timeScale
        self.dimensions = dimensions
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }
}
