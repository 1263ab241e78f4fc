/// The kind of media a track carries, as AVFoundation's `AVMediaType`.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Pictures (including still images loaded as a one-frame track).
    case video
    /// Sound.
    case audio
    /// Subtitles or closed captions (timed text: mov_text, SubRip, WebVTT, ASS), composed like pictures and sound.
    case subtitle
    /// Timed metadata, as AVFoundation's `AVMediaType.metadata`: groups of metadata items that each hold over a range
    /// of time (a location changing over a recording), composed like subtitles. Splice's own timed metadata tracks (a
    /// `tx3g` text track whose handler is named `Timed Metadata`) and QuickTime's boxed metadata tracks (`mebx` sample
    /// entries, which FFmpeg reads as opaque data, so their groups cannot be read or composed) are both of this type.
    case metadata
    /// Data tracks that are not timed metadata (attachments, GoPro telemetry, …): listed by assets, not composed.
    case data
    /// A stream FFmpeg cannot classify: listed, not composed.
    case unknown
}

extension MediaType {
    /// True for the media types a composition track can carry: video, audio, subtitle and metadata (AVFoundation also
    /// composes its subtitle, text and timed metadata tracks); data and unknown streams are listed by assets, not
    /// composed.
    public var isComposable: Bool { self == .video || self == .audio || self == .subtitle || self == .metadata }
}
