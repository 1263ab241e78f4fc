import Foundation

/// One track of an ``Asset``, as AVFoundation's `AVAssetTrack`: enough for a composition to cut from it and for the
/// export engine to decode it without probing again.
///
/// **Source time.** Time 0 of a track is its first *presented* sample: edit lists, AAC priming samples and non-zero
/// stream start times are folded in by the loader, so the same clip inserted at composition time T shows its first
/// picture and plays its first audible sample at T. ``startTimeOffset`` records where source time 0 lies in the
/// stream's own timestamps.
public struct AssetTrack: Sendable, Hashable, Codable {
    /// The file this track belongs to.
    public var assetURL: URL
    /// Stable 1-based identifier: the container stream index + 1.
    public var trackID: Int32
    /// Video, audio, subtitle, metadata (timed metadata) or another kind (``MediaType/isComposable`` says which are
    /// composed; the others are listed only).
    public var mediaType: MediaType
    /// The track's extent in source time: start 0, duration exact in the stream's own timescale. A still image has
    /// an unbounded range (duration ``MediaTime/positiveInfinity``): it can be inserted for any duration.
    public var timeRange: TimeRange
    /// The stream's own timescale (units per second, e.g. 600, 90000, 44100).
    public var naturalTimeScale: Int32
    /// FFmpeg's codec name (`h264`, `hevc`, `aac`, `pcm_s16le`, `png`, …).
    public var codecName: String
    /// Average bit rate in bits per second, when the container or codec states it.
    public var estimatedDataRate: Int?
    /// True when the linked FFmpeg has a decoder for ``codecName``.
    public var isDecodable: Bool
    /// The container's stream index (0-based), for the export engine.
    public var streamIndex: Int
    /// The stream timestamp, as a time in seconds, at which source time 0 lies (edit lists, priming and start times
    /// folded in). For the export engine.
    public var startTimeOffset: MediaTime
    /// Picture facts, for video tracks.
    public var video: VideoTrackFormat?
    /// Sound facts, for audio tracks.
    public var audio: AudioTrackFormat?
    /// The track's language as the container states it (ISO 639-2/T, e.g. `"eng"`, `"fra"`), as
    /// `AVAssetTrack.languageCode`; nil when unstated or `und`.
    public var languageCode: String?
    /// Timed-text facts, for subtitle tracks.
    public var subtitle: SubtitleTrackFormat?
    /// The track's own metadata items, as `AVAssetTrack.metadata`: every tag libavformat reads for the stream, by its
    /// raw key (`language`, `handler_name`, `title`, `vendor_id`, `encoder`, Matroska's `BPS`, …) in the container's
    /// order, each with its ``MetadataItem/commonKey`` where one fits (`title`); nil when the container states none.
    public var metadata: [MetadataItem]?

    /// A track description; loaders fill every field.
    public init(
        assetURL: URL, trackID: Int32, mediaType: MediaType, timeRange: TimeRange, naturalTimeScale: Int32,
        codecName: String, estimatedDataRate: Int? = nil, isDecodable: Bool = true, streamIndex: Int,
        startTimeOffset: MediaTime = .zero, video: VideoTrackFormat? = nil, audio: AudioTrackFormat? = nil,
        languageCode: String? = nil, subtitle: SubtitleTrackFormat? = nil
    ) {
        self.assetURL = assetURL
        self.trackID = trackID
        self.mediaType = mediaType
        self.timeRange = timeRange
        self.naturalTimeScale = naturalTimeScale
        self.codecName = codecName
        self.estimatedDataRate = estimatedDataRate
        self.isDecodable = isDecodable
        self.streamIndex = streamIndex
        self.startTimeOffset = startTimeOffset
        self.video = video
        self.audio = audio
        self.languageCode = languageCode
        self.subtitle = subtitle
    }

    /// The coded picture size in pixels (video tracks), as `AVAssetTrack.naturalSize`; nil for other tracks.
    public var naturalSize: Size? { video?.naturalSize }
    /// The display-orientation transform (video tracks), as `AVAssetTrack.preferredTransform`; identity otherwise.
    public var preferredTransform: AffineTransform2D { video?.preferredTransform ?? .identity }
}

/// Picture facts of a video track.
public struct VideoTrackFormat: Sendable, Hashable, Codable {
    /// The coded picture size in pixels (e.g. 568 × 320 for an iPhone 4S portrait clip).
    public var naturalSize: Size
    /// Pixel aspect ratio as `horizontal : vertical` spacing (1:1 for square pixels).
    public var pixelAspectRatio: PixelAspectRatio
    /// Maps the coded picture (after pixel-aspect correction) onto the upright display picture, in
    /// AVFoundation's convention: for a display-matrix rotation of −90° on a 568 × 320 frame it is
    /// `(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0)`, mapping the frame onto an upright 320 × 568 picture.
    /// Derived from the stream's display matrix (or EXIF orientation for still images).
    public var preferredTransform: AffineTransform2D
    /// Average frame rate in frames per second (for display; timing uses exact times).
    public var nominalFrameRate: Double
    /// The shortest frame duration observed or declared (exact).
    public var minFrameDuration: MediaTime
    /// True when frame durations vary (phone footage in low light, Live Photo movies).
    public var hasVariableFrameRate: Bool
    /// Number of frames when known.
    public var frameCount: Int?
    /// FFmpeg's name of the decoded pixel format (`yuv420p`, `yuvj420p`, `rgba`, …).
    public var pixelFormat: String
    /// Colour description of the coded pictures.
    public var color: ColorProperties
    /// True for a still image (PNG, JPEG) loaded as a one-frame track that can be shown for any duration.
    public var isStillImage: Bool

    /// A description of a video track.
    public init(
        naturalSize: Size, pixelAspectRatio: PixelAspectRatio = .square, preferredTransform: AffineTransform2D = .identity,
        nominalFrameRate: Double, minFrameDuration: MediaTime, hasVariableFrameRate: Bool = false, frameCount: Int? = nil,
        pixelFormat: String = "yuv420p", color: ColorProperties = .init(), isStillImage: Bool = false
    ) {
        self.naturalSize = naturalSize
        self.pixelAspectRatio = pixelAspectRatio
        self.preferredTransform = preferredTransform
        self.nominalFrameRate = nominalFrameRate
        self.minFrameDuration = minFrameDuration
        self.hasVariableFrameRate = hasVariableFrameRate
        self.frameCount = frameCount
        self.pixelFormat = pixelFormat
        self.color = color
        self.isStillImage = isStillImage
    }

    /// The picture size with square pixels, before the preferred transform: the width is scaled by the pixel aspect
    /// ratio and rounded to the nearest pixel.
    public var squarePixelSize: Size {
        guard pixelAspectRatio.horizontalSpacing > 0, pixelAspectRatio.verticalSpacing > 0 else { return naturalSize }
        let width = (naturalSize.width * pixelAspectRatio.horizontalSpacing * 2 + pixelAspectRatio.verticalSpacing)
            / (2 * pixelAspectRatio.verticalSpacing)
        return Size(width: width, height: naturalSize.height)
    }

    /// The upright display size in pixels: ``squarePixelSize`` transformed by ``preferredTransform``
    /// (e.g. 320 × 568 for a 568 × 320 clip rotated −90°).
    public var displaySize: Size {
        let box = preferredTransform.apply(to: squarePixelSize.bounds)
        return Size(width: Int(box.width.rounded()), height: Int(box.height.rounded()))
    }
}

/// Pixel aspect ratio (AVFoundation's `pixelAspectRatio`): a pixel is `horizontalSpacing / verticalSpacing` as wide
/// as it is tall.
public struct PixelAspectRatio: Sendable, Hashable, Codable {
    /// Relative pixel width.
    public var horizontalSpacing: Int
    /// Relative pixel height.
    public var verticalSpacing: Int

    /// A ratio `horizontalSpacing : verticalSpacing`.
    public init(horizontalSpacing: Int, verticalSpacing: Int) {
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
    }

    /// Square pixels (1:1).
    public static let square = PixelAspectRatio(horizontalSpacing: 1, verticalSpacing: 1)
}

/// Sound facts of an audio track.
public struct AudioTrackFormat: Sendable, Hashable, Codable {
    /// Samples per second per channel (Hz), e.g. 44100, 48000.
    public var sampleRate: Int
    /// Number of channels.
    public var channelCount: Int
    /// FFmpeg's layout name (`mono`, `stereo`, `5.1`, …). A file that states no layout (e.g. PCM with layout
    /// "unknown") gets the default layout for its channel count, so it is never rejected.
    public var channelLayout: String
    /// FFmpeg's decoded sample format name (`fltp`, `s16`, …).
    public var sampleFormat: String

    /// A description of an audio track.
    public init(sampleRate: Int, channelCount: Int, channelLayout: String, sampleFormat: String = "fltp") {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.channelLayout = channelLayout
        self.sampleFormat = sampleFormat
    }
}

/// Timed-text facts of a subtitle track: what players show in their caption menus.
public struct SubtitleTrackFormat: Sendable, Hashable, Codable {
    /// The track's name as the container states it (Matroska's and MP4's track title, e.g. `"English SDH"`).
    public var title: String?
    /// True when the container marks the track as the one to show by default (Matroska's `FlagDefault`, the MP4
    /// track's enabled flag as FFmpeg reads it: the `default` disposition).
    public var isDefault: Bool
    /// True when the track holds forced subtitles only (foreign dialogue shown to everyone; the `forced` disposition),
    /// as AVFoundation's `containsOnlyForcedSubtitles` characteristic.
    public var isForced: Bool
    /// Number of cues (timed text events) the track holds, counted when it was loaded.
    public var cueCount: Int

    /// A description of a subtitle track.
    public init(title: String? = nil, isDefault: Bool = false, isForced: Bool = false, cueCount: Int = 0) {
        self.title = title
        self.isDefault = isDefault
        self.isForced = isForced
        self.cueCount = cueCount
    }
}
