import Composition

/// One segment of a document track: a range of a track of a source file placed at a composition time, optionally
/// retimed — AVFoundation's `insertTimeRange(timeRange, of: sourceTrack, at: at)` followed, when ``toDuration``
/// is set, by `scaleTimeRange(TimeRange(start: at, duration: timeRange.duration), toDuration: toDuration)`.
///
/// ```json
/// { "source": "clips/a.mov", "track": "video", "timeRange": { "start": "1s", "duration": "3s" }, "at": "0s", "toDuration": "1.5s" }
/// ```
///
/// Time effects: `"reverse": true` plays the range backwards; `"freezeFrame": "1.2s"` with
/// `"toDuration": "2s"` holds the picture at source 1.2 s for 2 s (with `"freezeSound": "roomTone"` an audio
/// track loops its sound from there instead of silence); `"speedRamp": {"duration": "3s", "keyframes":
/// [{"time": "0s", "value": 1}, {"time": "1s", "value": 2}]}` ramps the rate (see ``SpeedRamp``).
public struct DocumentSegment: Sendable, Hashable, Codable {
    /// Which track of the source file a segment reads.
    public enum TrackSelector: Sendable, Hashable, Codable {
        /// The track with this ID (the container stream index + 1, as `splice probe` lists).
        case trackID(Int32)
        /// The first track of this media type.
        case first(MediaType)

        /// Decodes a whole number (a track ID) or a media type name (`"video"`, `"audio"`, `"subtitle"`).
        ///
        /// - Throws: `DecodingError` when the value is neither.
        public init(from decoder: any Swift.Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let trackID = try? container.decode(Int32.self) {
                self = .trackID(trackID)
            } else if let name = try? container.decode(String.self) {
                guard let mediaType = MediaType(rawValue: name), mediaType.isComposable else {
                    throw DecodingError.dataCorruptedError(
                        in: container,
                        debugDescription: "'\(name)' is not a track: write a track ID (a number), \"video\", \"audio\" or \"subtitle\"")
                }
                self = .first(mediaType)
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a track is a track ID (a number), \"video\" or \"audio\"")
            }
        }

        /// Encodes the track ID as a number or the media type as its name.
        public func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .trackID(let trackID): try container.encode(trackID)
            case .first(let mediaType): try container.encode(mediaType.rawValue)
            }
        }
    }

    /// The source file: a path relative to the document's folder, an absolute path, or a `file://` URL.
    public var source: String
    /// The source track; nil for the first track of the composition track's media type.
    public var track: TrackSelector?
    /// The range of the source track to insert, in source time (seconds from its first presented sample); nil for
    /// the whole track (a still image needs a range: it has no end).
    public var timeRange: TimeRange?
    /// Where the segment starts in composition time; nil to append at the track's end (AVFoundation's
    /// `insertTimeRange(_:of:at: .invalid)`). Must not be before the end of the previous segment of the track.
    public var at: MediaTime?
    /// The duration the inserted range is scaled to (a speed change: `timeRange.duration / toDuration` times as
    /// fast); nil to play at normal speed.
    public var toDuration: MediaTime?

    /// True to play ``timeRange`` backwards, picture and sound (``CompositionTrack/insertReversedTimeRange(_:of:at:)``);
    /// ``toDuration`` may still change its speed. nil or false: forwards.
    public var reverse: Bool?
    /// The source time of a picture to hold for ``toDuration`` (required with it): a freeze frame, silent on an audio
    /// track unless ``freezeSound`` says room tone (``CompositionTrack/insertFreezeFrame(at:of:duration:at:sound:)``).
    /// ``timeRange`` is not used with it.
    public var freezeFrame: MediaTime?
    /// What an audio track plays during a freeze frame (``FreezeFrameSound``): `"silence"` (when nil) or
    /// `"roomTone"`. Only with ``freezeFrame``.
    public var freezeSound: FreezeFrameSound?
    /// A keyframed rate (``SpeedRamp``) reading the source from `timeRange.start` (0 when ``timeRange`` is left out);
    /// the segment lasts the ramp's duration and reads its integral, so a given `timeRange.duration` must equal it.
    /// Not combined with ``toDuration`` or ``reverse``.
    public var speedRamp: SpeedRamp?
    /// Other tools' metadata of the segment (an OpenTimelineIO Clip's `metadata`), kept as written; nil for none.
    public var metadata: DocumentMetadata?

    /// A segment.
    public init(
        source: String, track: TrackSelector? = nil, timeRange: TimeRange? = nil, at: MediaTime? = nil,
        toDuration: MediaTime? = nil, reverse: Bool? = nil, freezeFrame: MediaTime? = nil,
        freezeSound: FreezeFrameSound? = nil, speedRamp: SpeedRamp? = nil, metadata: DocumentMetadata? = nil
    ) {
        self.source = source
        self.track = track
        self.timeRange = timeRange
        self.at = at
        self.toDuration = toDuration
        self.reverse = reverse
        self.freezeFrame = freezeFrame
        self.freezeSound = freezeSound
        self.speedRamp = speedRamp
        self.metadata = metadata
    }
}
