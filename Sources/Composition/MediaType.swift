/// The kind of media a track carries, as AVFoundation's `AVMediaType`.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Pictures (including still images loaded as a one-frame track).
    case video
    /// Sound.
    case audio
    /// Subtitles or closed captions (timed text: mov_text, SubRip, WebVTT, ASS), composed like pictures and sound.
    case subtitle
    /// Timed metadata and other data tracks: listed by assets, not composed.
    case data
    /// A stream FFmpeg cannot classify: listed, not composed.
    case unknown
}

extension MediaType {
    /// True for the media types a composition track can carry: video, audio and subtitle (AVFoundation also composes
    /// its subtitle and text tracks); data and unknown streams are listed by assets, not composed.
    public var isComposable: Bool { self == .video || self == .audio || self == .subtitle }
}
