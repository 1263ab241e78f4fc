import Foundation

/// What an encoder's output must match so that its packets can be joined into an existing H.264 or HEVC stream
/// (smart rendering's re-encoded pieces between copied packets): the stream's codec, profile, level, tier and
/// parameter-set ids, and the quality to encode at. Read from the stream's `avcC` or `hvcC` decoder configuration
/// (``init(avcC:)``, ``init(hvcC:)``); the encoder options it gives are
/// ``VideoSettings/encoderConfiguration(for:clock:fileType:joining:)``'s.
struct JoinableStreamParameters: Hashable, Sendable {
    /// The source's codec: H.264 (from `avcC`) or HEVC (from `hvcC`).
    var codec: VideoSettings.Codec = .h264
    /// H.264 `profile_idc` (66 Baseline, 77 Main, 100 High, 110 High 10); HEVC `general_profile_idc` (1 Main,
    /// 2 Main 10).
    var profile: Int
    /// H.264 `level_idc` (level × 10: 40 is level 4.0); HEVC `general_level_idc` (level × 30: 123 is 4.1).
    var level: Int
    /// The `seq_parameter_set_id`s of the source's SPS (PPS ids follow x264's rule of the same id); HEVC: [0]
    /// (x265 always writes id 0: its pieces replace the source's sets in-band, ``SmartRenderParameterSets``).
    var parameterSetIDs: Set<Int>
    /// HEVC `general_tier_flag`: true for the High tier.
    var highTier = false
    /// x264's CRF for the pieces, matched to the copied groups' bits per pixel
    /// (``constantRateFactor(bitsPerPixel:)``); nil: the export's own rate control.
    var constantRateFactor: Int? = nil
    /// x264's preset for the pieces (``SmartRenderEncoding/x264Preset(exportPreset:)``); nil: the export's own.
    var x264Preset: String? = nil

    /// The first parameter-set id (0…31) the source does not use.
    var freeParameterSetID: Int? { (0..<32).first { !parameterSetIDs.contains($0) } }

    /// x264's `profile` option for ``profile``, or nil when x264 cannot encode it.
    var x264Profile: String? {
        switch profile {
        case 66: return "baseline"
        case 77: return "main"
        case 100: return "high"
        case 110: return "high10"
        default: return nil
        }
    }

    /// x264's `level` option for ``level`` ("4.0", "3.1", "1b" is not handled).
    var x264Level: String { "\(level / 10).\(level % 10)" }

    /// A described source (tests).
    init(codec: VideoSettings.Codec = .h264, profile: Int, level: Int, parameterSetIDs: Set<Int>, highTier: Bool = false) {
        self.codec = codec
        self.profile = profile
        self.level = level
        self.parameterSetIDs = parameterSetIDs
        self.highTier = highTier
    }

    /// x265's `profile` option for an HEVC ``profile`` (1 `main`, 2 `main10`), or nil.
    var x265Profile: String? {
        guard codec == .hevc else { return nil }
        switch profile {
        case 1: return "main"
        case 2: return "main10"
        default: return nil
        }
    }

    /// x265's `level-idc` for an HEVC ``level`` ("4.1" for 123).
    var x265Level: String { "\(level / 30).\(level % 30 / 3)" }
}
