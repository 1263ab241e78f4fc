/// The kind of media a track carries, as AVFoundation's `AVMediaType`.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Pictures (including still images loaded as a one-frame track).
    case video
    /// Sound.
    case audio
    /// Subtitles or closed captions: listed by assets, not composed.
    case subtitle
    /// Timed metadata and other data tracks: listed by assets, not composed.
    case data
    /// A stream FFmpeg cannot classify: listed, not composed.
    case unknown
}
