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
                             timeScale: Int32 = 90_000, profile: String? = nil, level: String? = nil,
                             allowsFrameReordering: Bool = true) -> AssetWriterInputSettings {
        .video(WriterVideoSettings(encoding: encoding, size: size, frameDuration: frameDuration, timeScale: timeScale,
                                   profile: profile, level: level, allowsFrameReordering: allowsFrameReordering))
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
    /// The codec profile (AVFoundation's `AVVideoProfileLevelKey`, profile part), by the encoder's name: H.264
    /// `baseline`, `main`, `high` (libx264's `profile`; `high10` for 10 bits), HEVC `main`, `main10` (libx265's
    /// `profile`). nil: the encoder's choice for the bit depth. Only H.264 and HEVC take one.
    public var profile: String?
    /// The codec level (AVFoundation's `AVVideoProfileLevelKey`, level part), e.g. `4.1`: libx264's `level`,
    /// libx265's `level-idc`. nil: the encoder derives it. Only H.264 and HEVC take one.
    public var level: String?
    /// False: no B-frames, pictures are encoded in presentation order (AVFoundation's
    /// `AVVideoAllowFrameReorderingKey`; the encoder's `bf=0`). True (the default): the encoder's preset decides.
    public var allowsFrameReordering: Bool

    /// Video settings for a writer input.
    public init(encoding: VideoSettings = VideoSettings(), size: Size,
                frameDuration: MediaTime = MediaTime(value: 1, timescale: 30), timeScale: Int32 = 90_000,
                profile: String? = nil, level: String? = nil, allowsFrameReordering: Bool = true) {
        self.encoding = encoding
        self.size = size
        self.frameDuration = frameDuration
        self.timeScale = timeScale
        self.profile = profile
        self.level = level
        self.allowsFrameReordering = allowsFrameReordering
    }
}
