import Composition
import SpliceFFmpeg

/// The container of an export, as AVFoundation's `AVFileType`.
public enum FileType: String, Sendable, Hashable, Codable, CaseIterable {
    /// MPEG-4 (`.mp4`): H.264/HEVC/AV1 + AAC/Opus.
    case mp4
    /// QuickTime (`.mov`): H.264/HEVC/ProRes + AAC/PCM.
    case mov
    /// MPEG-4 audio (`.m4a`): AAC only, no video.
    case m4a
    /// Matroska (`.mkv`): H.264, HEVC, ProRes, VP9, AV1 or FFV1 video; AAC, Opus, Vorbis or PCM audio.
    case mkv
    /// WebM (`.webm`): VP9 or AV1 + Opus or Vorbis (VP9 + Opus when no codec is named).
    case webm

    /// The libavformat muxer name (package access: AssetIO's writer opens the same muxers).
    package var muxerName: String {
        switch self {
        case .mp4: return "mp4"
        case .mov: return "mov"
        case .m4a: return "ipod"
        case .mkv: return "matroska"
        case .webm: return "webm"
        }
    }

    /// The file type for a path extension (`mp4`, `m4v`, `mov`, `m4a`, `mkv`, `webm`), case-insensitive.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov", "qt": self = .mov
        case "m4a": self = .m4a
        case "mkv": self = .mkv
        case "webm": self = .webm
        default: return nil
        }
    }

    /// True when the container can hold a video stream.
    public var supportsVideo: Bool { self != .m4a }
}

/// Explicit encoder settings: what AVFoundation's presets fix, opened up (codec, quality, rate, format).
/// Presets (``ExportPreset``) are named `ExportSettings`.
public struct ExportSettings: Sendable, Hashable, Codable {
    /// Video encoding; nil exports audio only.
    public var video: VideoSettings?
    /// Audio encoding; nil exports video only.
    public var audio: AudioSettings?

    /// Settings with the given parts.
    public init(video: VideoSettings? = VideoSettings(), audio: AudioSettings? = AudioSettings()) {
        self.video = video
        self.audio = audio
    }

    /// The default settings for a container, for an export that names no codec: codecs the container can hold.
    /// `.webm`: VP9 (CRF 31, libvpx's usual quality) + Opus 128 kb/s; `.m4a`: AAC only; the others: H.264 CRF 23 +
    /// AAC (``init(video:audio:)``'s defaults).
    public static func defaults(for fileType: FileType) -> ExportSettings {
        switch fileType {
        case .webm: return ExportSettings(video: VideoSettings(codec: .vp9, rateControl: .constantQuality(31)), audio: AudioSettings(codec: .opus))
        case .m4a: return ExportSettings(video: nil, audio: AudioSettings())
        case .mp4, .mov, .mkv: return ExportSettings()
        }
    }
}

/// Video encoder settings.
public struct VideoSettings: Sendable, Hashable, Codable {
    /// The video codec.
    public enum Codec: String, Sendable, Hashable, Codable, CaseIterable {
        /// H.264 through libx264.
        case h264
        /// HEVC through libx265.
        case hevc
        /// Apple ProRes 422 through prores_ks (`.mov`/`.mkv` only).
        case prores
        /// VP9 through libvpx-vp9 (`.webm`/`.mkv`).
        case vp9
        /// FFV1 through libavcodec's `ffv1` (`.mkv`/`.mov`): lossless, every frame a key frame, in the render canvas's
        /// format (8-bit 4:2:0, BT.709 limited), so the file holds exactly the frames the compositor made. The rate
        /// control and encoder preset are ignored.
        case ffv1
        /// AV1 through SVT-AV1 (`libsvtav1`), else libaom (`libaom-av1`) — whichever the linked FFmpeg has
        /// (`.webm`, `.mkv`, `.mp4`). CRF 0–63.
        case av1

        /// The libavcodec encoder name (AV1: the first of `libsvtav1`, `libaom-av1` the linked FFmpeg has).
        var encoderName: String {
            switch self {
            case .h264: return "libx264"
            case .hevc: return "libx265"
            case .prores: return "prores_ks"
            case .vp9: return "libvpx-vp9"
            case .ffv1: return "ffv1"
            case .av1: return Self.av1Encoders.first { MediaLibrary.hasEncoder(named: $0) } ?? Self.av1Encoders[0]
            }
        }

        /// The AV1 encoders Splice drives, in order of preference (SVT-AV1 is much faster than libaom).
        static let av1Encoders = ["libsvtav1", "libaom-av1"]
    }

    /// How the encoder spends bits.
    public enum RateControl: Sendable, Hashable {
        /// Constant quality (x264/x265 CRF, 0–51; VP9 and AV1 0–63; lower is better; 23 is x264's default). Other values are
        /// refused by `export()` with ``ExportError/unsupportedSettings(_:)``.
        case constantQuality(Int)
        /// Average bit rate in bits per second (1 ... 2^31 − 1).
        case averageBitRate(Int)
    }

    /// The codec; H.264 by default.
    public var codec: Codec
    /// Quality or bit rate; CRF 23 by default.
    public var rateControl: RateControl
    /// The encoder's speed/quality preset (`ultrafast` … `veryslow` for x264/x265); `medium` by default. An empty or
    /// unknown name is an ``ExportError/unsupportedSettings(_:)``.
    public var encoderPreset: String
    /// Maximum output size in pixels: the render size is scaled down to fit (aspect kept, even dimensions) and never
    /// scaled up (AVFoundation's rule for sized presets). nil keeps the render size; a width or height ≤ 0 is refused.
    public var maximumSize: Size?
    /// Frames between key frames (1 ... 2^31 − 1); nil = 2 seconds' worth.
    public var keyFrameInterval: Int?
    /// Bits per component of the encoded pictures and of the composition canvas: 8 or 10. nil (the default)
    /// follows the composition: 10 for HDR, 8 for SDR. 10 gives H.264 High 10, HEVC Main 10, VP9 profile 2
    /// (ProRes is always 10-bit 4:2:2); an HDR composition with 8 is refused. The chroma layout follows the codec
    /// (4:2:0; ProRes 4:2:2).
    public var bitDepth: Int?

    /// Video settings; defaults give H.264 CRF 23, preset medium, render size.
    public init(codec: Codec = .h264, rateControl: RateControl = .constantQuality(23), encoderPreset: String = "medium",
                maximumSize: Size? = nil, keyFrameInterval: Int? = nil, bitDepth: Int? = nil) {
        self.codec = codec
        self.rateControl = rateControl
        self.encoderPreset = encoderPreset
        self.maximumSize = maximumSize
        self.keyFrameInterval = keyFrameInterval
        self.bitDepth = bitDepth
    }
}

/// Audio encoder settings.
public struct AudioSettings: Sendable, Hashable, Codable {
    /// The audio codec.
    public enum Codec: String, Sendable, Hashable, Codable, CaseIterable {
        /// AAC-LC through FFmpeg's native encoder.
        case aac
        /// Opus through libopus (48 kHz only).
        case opus
        /// 16-bit PCM (`.mov`/`.mkv`).
        case pcm
        /// Vorbis through libvorbis (`.webm`/`.mkv`).
        case vorbis

        var encoderName: String {
            switch self {
            case .aac: return "aac"
            case .opus: return "libopus"
            case .pcm: return "pcm_s16le"
            case .vorbis: return "libvorbis"
            }
        }
    }

    /// The codec; AAC by default.
    public var codec: Codec
    /// Bits per second (ignored for PCM; otherwise 1 ... 2^31 − 1); 128 000 by default.
    public var bitRate: Int
    /// Samples per second (Hz, 1 ... 384 000; the encoder may accept fewer, e.g. AAC's standard rates); 48 000 by
    /// default.
    public var sampleRate: Int
    /// 1 (mono) or 2 (stereo); 2 by default. Other counts are refused.
    public var channelCount: Int

    /// Audio settings; defaults give AAC 128 kb/s, 48 kHz stereo.
    public init(codec: Codec = .aac, bitRate: Int = 128_000, sampleRate: Int = 48_000, channelCount: Int = 2) {
        self.codec = codec
        self.bitRate = bitRate
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }
}

/// AVFoundation's export presets, by their AVFoundation names, each a named ``ExportSettings``.
public enum ExportPreset: String, Sendable, Hashable, CaseIterable {
    /// H.264 CRF 18, render size.
    case highestQuality = "AVAssetExportPresetHighestQuality"
    /// H.264 CRF 23, at most 1280×720.
    case mediumQuality = "AVAssetExportPresetMediumQuality"
    /// H.264 CRF 28, at most 640×480, 64 kb/s audio.
    case lowQuality = "AVAssetExportPresetLowQuality"
    /// H.264 + AAC, at most 640×480.
    case preset640x480 = "AVAssetExportPreset640x480"
    /// H.264 + AAC, at most 960×540.
    case preset960x540 = "AVAssetExportPreset960x540"
    /// H.264 + AAC, at most 1280×720.
    case preset1280x720 = "AVAssetExportPreset1280x720"
    /// H.264 + AAC, at most 1920×1080.
    case preset1920x1080 = "AVAssetExportPreset1920x1080"
    /// H.264 + AAC, at most 3840×2160.
    case preset3840x2160 = "AVAssetExportPreset3840x2160"
    /// HEVC CRF 20, render size; HDR sources stay HDR (HEVC Main 10, as AVFoundation's preset keeps HDR).
    case hevcHighestQuality = "AVAssetExportPresetHEVCHighestQuality"
    /// HEVC, at most 1920×1080.
    case hevc1920x1080 = "AVAssetExportPresetHEVC1920x1080"
    /// HEVC, at most 3840×2160.
    case hevc3840x2160 = "AVAssetExportPresetHEVC3840x2160"
    /// AAC audio only (`.m4a`).
    case appleM4A = "AVAssetExportPresetAppleM4A"
    /// Stream copy without re-encoding, where the composition allows it. Pictures and sound only: a composition with
    /// enabled subtitle tracks is refused (``ExportError/unsupportedSettings(_:)``) rather than written without them.
    case passthrough = "AVAssetExportPresetPassthrough"

    /// The settings the preset stands for; nil for ``passthrough``.
    public var settings: ExportSettings? {
        func h264(_ crf: Int, _ size: Size?) -> VideoSettings {
            VideoSettings(codec: .h264, rateControl: .constantQuality(crf), maximumSize: size)
        }
        func hevc(_ crf: Int, _ size: Size?) -> VideoSettings {
            VideoSettings(codec: .hevc, rateControl: .constantQuality(crf), maximumSize: size)
        }
        switch self {
        case .highestQuality: return ExportSettings(video: h264(18, nil))
        case .mediumQuality: return ExportSettings(video: h264(23, Size(width: 1280, height: 720)))
        case .lowQuality:
            return ExportSettings(video: h264(28, Size(width: 640, height: 480)), audio: AudioSettings(bitRate: 64_000))
        case .preset640x480: return ExportSettings(video: h264(23, Size(width: 640, height: 480)))
        case .preset960x540: return ExportSettings(video: h264(23, Size(width: 960, height: 540)))
        case .preset1280x720: return ExportSettings(video: h264(23, Size(width: 1280, height: 720)))
        case .preset1920x1080: return ExportSettings(video: h264(23, Size(width: 1920, height: 1080)))
        case .preset3840x2160: return ExportSettings(video: h264(23, Size(width: 3840, height: 2160)))
        case .hevcHighestQuality: return ExportSettings(video: hevc(20, nil))
        case .hevc1920x1080: return ExportSettings(video: hevc(25, Size(width: 1920, height: 1080)))
        case .hevc3840x2160: return ExportSettings(video: hevc(25, Size(width: 3840, height: 2160)))
        case .appleM4A: return ExportSettings(video: nil, audio: AudioSettings())
        case .passthrough: return nil
        }
    }
}
