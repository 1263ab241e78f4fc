import Composition
import Export

/// What an ``AssetWriterInput`` encodes to (AVFoundation's `outputSettings` dictionary, typed, with the export's own
/// encoder settings). A nil setting instead takes compressed samples and writes them as they are (passthrough).
public enum AssetWriterInputSettings: Sendable, Hashable {
    /// Pictures encoded with the export's ``VideoSettings`` (codec, CRF or bit rate, preset, key-frame interval,
    /// bit depth) at a fixed size.
    case video(WriterVideoSettings)
    /// Sound encoded with the export's ``AudioSettings`` (codec, bit rate, sample rate, channel count).
    case audio(AudioSettings)

    /// Pictures of `size` encoded per `encoding`, nominally one every `frameDuration`, stamped in 1/`timeScale`
    /// second units.
    public static func video(_ encoding: VideoSettings = VideoSettings(), size: Size,
                             frameDuration: MediaTime = MediaTime(value: 1, timescale: 30),
                             timeScale: Int32 = 90_000) -> AssetWriterInputSettings {
        .video(WriterVideoSettings(encoding: encoding, size: size, frameDuration: frameDuration, timeScale: timeScale))
    }
}

/// A video input's encoding: the export's ``VideoSettings`` plus the picture size and clock a writer needs, which
/// an export takes from its composition (AVFoundation's `AVVideoWidthKey`, `AVVideoHeightKey`,
/// `AVVideoExpectedSourceFrameRateKey`).
public struct WriterVideoSettings: Sendable, Hashable {
    /// Codec, rate control, preset, key-frame interval, bit depth. ``VideoSettings/maximumSize`` is not used: the
    /// pictures are encoded at ``size``.
    public var encoding: VideoSettings
    /// The encoded picture size in pixels; every appended picture must have it.
    public var size: Size
    /// The nominal time between pictures (exact): the encoder's frame rate, the default key-frame interval (2 s of
    /// frames) and the duration of the last picture. Appended times may vary (variable frame rate).
    public var frameDuration: MediaTime
    /// Units per second of the encoded timestamps (90 000 by default, which holds 1/24, 1/25, 1/30, 1/60 and
    /// 1001/30000 s exactly); appended times are rounded to it.
    public var timeScale: Int32

    /// Video settings for a writer input.
    public init(encoding: VideoSettings = VideoSettings(), size: Size,
                frameDuration: MediaTime = MediaTime(value: 1, timescale: 30), timeScale: Int32 = 90_000) {
        self.encoding = encoding
        self.size = size
        self.frameDuration = frameDuration
        self.timeScale = timeScale
    }
}
