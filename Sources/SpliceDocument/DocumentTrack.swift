import Composition

/// One composition track of a document: an ID, a media type, and the segments inserted into it in order
/// (AVFoundation's `addMutableTrack(withMediaType:preferredTrackID:)` followed by `insertTimeRange(_:of:at:)` calls).
public struct DocumentTrack: Sendable, Hashable, Codable {
    /// The composition track ID (≥ 1, unique in the document); video compositions and audio mixes refer to it.
    public var trackID: Int32
    /// `video`, `audio` or `subtitle`.
    public var mediaType: MediaType
    /// The segments, in composition-time order, not overlapping; a gap between two is left empty (black / silent).
    public var segments: [DocumentSegment]
    /// The track's volume as a linear gain (1.0 = unity), as `preferredVolume`; nil for 1.0.
    public var preferredVolume: Double?
    /// False to leave the track out of the export, as `isEnabled`; nil for true.
    public var isEnabled: Bool?
    /// Other tools' metadata of the track (an OpenTimelineIO Track's `metadata`), kept as written; nil for none.
    public var metadata: DocumentMetadata?
    /// The track's ISO 639-2 language (`"eng"`), as `languageCode`; nil for its first source's. Written as a
    /// subtitle stream's `language` tag.
    public var languageCode: String?

    /// A track.
    public init(
        trackID: Int32, mediaType: MediaType, segments: [DocumentSegment], preferredVolume: Double? = nil, isEnabled: Bool? = nil,
        metadata: DocumentMetadata? = nil, languageCode: String? = nil
    ) {
        self.trackID = trackID
        self.mediaType = mediaType
        self.segments = segments
        self.preferredVolume = preferredVolume
        self.isEnabled = isEnabled
        self.metadata = metadata
        self.languageCode = languageCode
    }
}
