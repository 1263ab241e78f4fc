import Composition

/// One subtitle track of an export, as plain data: the composition track clipped to the export range (its segments'
/// exact mappings say which source cues show when), the encoder that writes it, and what the output track says about
/// itself. ``SubtitleWriter`` turns it into packets.
struct SubtitleTrackPlan: Sendable, Hashable {
    /// The composition track's ID.
    var trackID: Int32
    /// The track's segments on the export's clock.
    var track: RenderTrack
    /// The text format written.
    var codec: SubtitleCodec
    /// ISO 639-2 language written as the stream's `language` tag: the composition track's own, else its first
    /// source's; nil when neither states one.
    var languageCode: String?
    /// The track name written as the stream's `title` tag.
    var title: String?
    /// Written as the `default` disposition.
    var isDefault: Bool
    /// Written as the `forced` disposition.
    var isForced: Bool
}
