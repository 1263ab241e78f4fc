import Composition

/// What an ``AssetReaderTrackOutput`` decodes its track to (AVFoundation's `outputSettings` dictionary, typed). A
/// nil setting instead hands out the stored compressed samples.
public enum AssetReaderOutputSettings: Sendable, Hashable {
    /// Decoded pictures.
    case video(DecodedVideoSettings)
    /// Decoded sound.
    case audio(DecodedAudioSettings)

    /// Pictures in `pixelFormat`, at the track's size unless `size` says otherwise.
    public static func video(pixelFormat: PixelBuffer.PixelFormat, size: Size? = nil) -> AssetReaderOutputSettings {
        .video(DecodedVideoSettings(pixelFormat: pixelFormat, size: size))
    }

    /// Interleaved linear PCM in `sampleFormat`, at the track's rate and channel count unless given.
    public static func audio(sampleFormat: AudioBuffer.SampleFormat, sampleRate: Int? = nil, channelCount: Int? = nil)
        -> AssetReaderOutputSettings {
        .audio(DecodedAudioSettings(sampleFormat: sampleFormat, sampleRate: sampleRate, channelCount: channelCount))
    }
}

/// Decoded pictures: pixel format and size (AVFoundation's `kCVPixelBufferPixelFormatTypeKey`, `…WidthKey`,
/// `…HeightKey`). Converted by libswscale (FFmpeg's `scale` and `format` filters, bicubic): YUV → RGB uses the
/// matrix and range the picture is tagged with (untagged: BT.601, as FFmpeg's own conversion), giving full-range RGB.
public struct DecodedVideoSettings: Sendable, Hashable {
    public var pixelFormat: PixelBuffer.PixelFormat
    /// Output size in pixels; nil keeps the coded size. The picture is scaled to exactly this size.
    public var size: Size?

    /// Settings for pictures in `pixelFormat` (BGRA8 by default, as `kCVPixelFormatType_32BGRA`).
    public init(pixelFormat: PixelBuffer.PixelFormat = .bgra8, size: Size? = nil) {
        self.pixelFormat = pixelFormat
        self.size = size
    }
}

/// Decoded sound: interleaved linear PCM (AVFoundation's `kAudioFormatLinearPCM` with `AVLinearPCMIsFloatKey`,
/// `AVLinearPCMBitDepthKey`, `AVSampleRateKey`, `AVNumberOfChannelsKey`). Resampled and remixed by libswresample
/// (FFmpeg's `aresample` and `aformat`) only when the rate or channel count differs from the track's.
public struct DecodedAudioSettings: Sendable, Hashable {
    public var sampleFormat: AudioBuffer.SampleFormat
    /// Samples per second (Hz); nil keeps the track's rate.
    public var sampleRate: Int?
    /// Channels, in FFmpeg's default layout for the count; nil keeps the track's.
    public var channelCount: Int?

    /// Settings for `sampleFormat` (Float32 by default) at the given rate and channel count.
    public init(sampleFormat: AudioBuffer.SampleFormat = .float32, sampleRate: Int? = nil, channelCount: Int? = nil) {
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }
}

extension DecodedVideoSettings {
    /// - Throws: ``AssetReaderError/invalidSettings(_:)`` for a size that is not positive.
    func check() throws {
        if let size, size.width <= 0 || size.height <= 0 {
            throw AssetReaderError.invalidSettings("size \(size.width)×\(size.height) pixels is not positive")
        }
    }
}

extension DecodedAudioSettings {
    /// - Throws: ``AssetReaderError/invalidSettings(_:)`` for a rate outside 1 ... 384000 Hz or a channel count
    ///   outside 1 ... `maximumChannels`.
    func check(maximumChannels: Int = 8) throws {
        if let rate = sampleRate, rate <= 0 || rate > 384_000 {
            throw AssetReaderError.invalidSettings("sample rate \(rate) Hz is outside 1 ... 384000")
        }
        if let channels = channelCount, channels <= 0 || channels > maximumChannels {
            throw AssetReaderError.invalidSettings("channel count \(channels) is outside 1 ... \(maximumChannels)")
        }
    }
}
