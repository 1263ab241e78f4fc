/// One track of a ``MutableComposition``, as AVFoundation's `AVMutableCompositionTrack`: a time-ordered list of
/// segments, each playing a range of a source track (or nothing) over a range of composition time.
///
/// **Invariant.** ``segments`` always tile ``timeRange`` = `[0, end)`: the first starts at 0, each next one starts
/// exactly where the previous one ends, every segment lasts more than 0 s, and the last one is not empty (a track
/// never ends with a gap, as in AVFoundation). Every editing operation keeps it, or throws and leaves the track
/// unchanged. ``validateSegments(_:trackID:mediaType:)`` checks a candidate list.
///
/// **Editing** (`CompositionTrack+Editing.swift`) follows AVFoundation: inserting ripples later segments right and
/// never overwrites; removing ripples left; scaling retimes a range. All times are exact ``MediaTime``s; no
/// boundary is ever rounded.
///
/// Adjacent segments that continue the same source contiguously at the same speed, and adjacent empty segments,
/// are merged where an edit makes them meet (as AVFoundation does after a split and re-join).
public struct CompositionTrack: Sendable, Hashable {
    /// Unique within its composition, ≥ 1 (a `CMPersistentTrackID`).
    public let trackID: Int32
    /// Video, audio or subtitles.
    public let mediaType: MediaType
    /// The segments, a gap-free, overlap-free tiling of ``timeRange`` in time order (see the invariant above).
    public internal(set) var segments: [CompositionTrackSegment]
    /// Maps the coded picture onto the upright display picture, in pixels (CGAffineTransform convention). Set from
    /// the first video source inserted into an empty track (the source track's `preferredTransform`, as a port of
    /// `compositionTrack.preferredTransform = assetTrack.preferredTransform` expects); identity for audio.
    public var preferredTransform: AffineTransform2D
    /// Playback volume as a linear gain (1.0 = unity, 0 = silent), as `AVMutableCompositionTrack.preferredVolume`.
    /// Must be finite and ≥ 0; the export engine rejects other values. Default 1.0.
    public var preferredVolume: Double
    /// Units per second in which the track's times are naturally expressed (e.g. 600, 30000, 44100), as
    /// `AVMutableCompositionTrack.naturalTimeScale`. 600 until a source is inserted into the empty track; then the
    /// source track's ``AssetTrack/naturalTimeScale``. Informational: editing is exact in any timescale.
    public var naturalTimeScale: Int32
    /// False to leave the track out of playback and export, as `AVMutableCompositionTrack.isEnabled`. Default true.
    public var isEnabled: Bool
    /// The coded picture size in pixels: for video, the ``AssetTrack/naturalSize`` of the first source inserted into
    /// the empty track; ``Size/zero`` for audio and for a track with no source yet.
    public var naturalSize: Size
    /// The track's language as an ISO 639-2/T code (`"eng"`, `"fra"`), as `AVMutableCompositionTrack.languageCode`;
    /// nil (the default) for its first source track's. An export writes it as the output stream's `language` tag.
    public var languageCode: String?
    /// Items an export writes as its output stream's tags (the track's `title`, `handler_name`, …, by
    /// libavformat's keys, as ``AssetTrack/metadata`` reads them back), over those carried from the first source
    /// track; the output's video stream takes the first video track's, its audio stream the first audio track's.
    /// Empty by default.
    public var metadata: [MetadataItem] = []

    /// The fastest and slowest supported playback speed, as a factor: a segment may play from `1/32` (32 times
    /// slower) to `32` times faster than its source, inclusive. ``scaleTimeRange(_:toDuration:)`` refuses speeds
    /// outside this range with ``CompositionError/speedOutOfRange(trackID:sourceRange:targetRange:)``. Still images
    /// are exempt (their speed has no visible meaning). AVFoundation states no limit; Splice bounds it so the
    /// renderer's frame selection and audio tempo filters stay well-conditioned.
    public static let speedLimit: Int64 = 32

    /// An empty track (no segments) with default properties.
    ///
    /// - Parameters:
    ///   - trackID: ≥ 1.
    ///   - mediaType: ``MediaType/video``, ``MediaType/audio``, ``MediaType/subtitle`` (timed text: its cues are
    ///     cut, moved and scaled with the track's segments like pictures and sound) or ``MediaType/metadata`` (timed
    ///     metadata groups, placed as cues are).
    /// - Throws: ``CompositionError/invalidTrackID(_:)`` for an ID below 1;
    ///   ``CompositionError/unsupportedMediaType(_:)`` for a media type other than video, audio, subtitle or metadata.
    public init(trackID: Int32, mediaType: MediaType) throws {
        guard trackID >= 1 else { throw CompositionError.invalidTrackID(trackID) }
        guard mediaType.isComposable else {
            throw CompositionError.unsupportedMediaType(mediaType)
        }
        self.init(checkedTrackID: trackID, mediaType: mediaType)
    }

    /// A track holding `segments`, checked with ``validateSegments(_:trackID:mediaType:)``. The track's
    /// ``preferredTransform``, ``naturalSize`` and ``naturalTimeScale`` come from the first media segment's source.
    ///
    /// - Throws: what ``init(trackID:mediaType:)`` throws, and the first violation of the segment invariant.
    public init(trackID: Int32, mediaType: MediaType, segments: [CompositionTrackSegment]) throws {
        try self.init(trackID: trackID, mediaType: mediaType)
        try Self.validateSegments(segments, trackID: trackID, mediaType: mediaType)
        self.segments = segments
        if let source = segments.first(where: { !$0.isEmpty })?.sourceTrack {
            adoptProperties(of: source)
        }
    }

    /// An empty track; the caller has checked the ID and media type.
    init(checkedTrackID trackID: Int32, mediaType: MediaType) {
        self.trackID = trackID
        self.mediaType = mediaType
        self.segments = []
        self.preferredTransform = .identity
        self.preferredVolume = 1.0
        self.naturalTimeScale = 600
        self.isEnabled = true
        self.naturalSize = .zero
    }

    /// `[0, end of the last segment)`; ``TimeRange/zero`` for a track with no segments.
    public var timeRange: TimeRange {
        TimeRange(start: .zero, duration: end)
    }

    /// The end of the last segment in composition time (seconds); zero for a track with no segments.
    var end: MediaTime {
        segments.last?.timeMapping.target.end ?? .zero
    }

    /// The segment whose target range contains `time` (half-open: a segment's end belongs to the next one), or nil
    /// when `time` is not a numeric time inside ``timeRange``, as `AVCompositionTrack.segment(forTrackTime:)`.
    ///
    /// - Complexity: O(log n) in the number of segments.
    public func segment(forTrackTime time: MediaTime) -> CompositionTrackSegment? {
        guard time.isNumeric, time >= .zero, time < end else { return nil }
        return segments[segmentIndex(containing: time)]
    }

    /// The index of the last segment starting at or before `time` (binary search); `time` lies in `[0, end)`.
    func segmentIndex(containing time: MediaTime) -> Int {
        var low = 0, high = segments.count  // answer in low ..< high
        while high - low > 1 {
            let middle = (low + high) / 2
            if segments[middle].timeMapping.target.start <= time { low = middle } else { high = middle }
        }
        return low
    }

    /// Takes ``preferredTransform``, ``naturalSize`` and ``naturalTimeScale`` from `source` (video size and transform
    /// for video tracks only).
    mutating func adoptProperties(of source: AssetTrack) {
        if mediaType == .video {
            preferredTransform = source.preferredTransform
            naturalSize = source.naturalSize ?? .zero
        }
        if source.naturalTimeScale > 0 {
            naturalTimeScale = source.naturalTimeScale
        }
    }
}

extension CompositionTrack: Codable {
    private enum CodingKeys: String, CodingKey {
        case trackID, mediaType, segments, preferredTransform, preferredVolume, naturalTimeScale, isEnabled, naturalSize
        case languageCode, metadata
    }

    /// Decodes a track and checks it: `trackID` and `mediaType` are required; `segments` defaults to none and the
    /// other properties to their defaults (identity, 1.0, 600, true, zero, nil, none).
    ///
    /// - Throws: `DecodingError.dataCorrupted` carrying the ``CompositionError`` (as `underlyingError`, its
    ///   description as `debugDescription`) when the ID, media type or segment list is invalid; naming the field
    ///   when a picture fact (natural size, transform, a source's coded size or pixel aspect ratio) is beyond any
    ///   real picture's (sides 0 ... 65535 pixels, transform components finite within ±1,000,000).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let trackID = try container.decode(Int32.self, forKey: .trackID)
        let mediaType = try container.decode(MediaType.self, forKey: .mediaType)
        let segments = try container.decodeIfPresent([CompositionTrackSegment].self, forKey: .segments) ?? []
        do {
            try self.init(trackID: trackID, mediaType: mediaType)
            try Self.validateSegments(segments, trackID: trackID, mediaType: mediaType)
        } catch let error as CompositionError {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath, debugDescription: error.description, underlyingError: error))
        }
        self.segments = segments
        preferredTransform = try container.decodeIfPresent(AffineTransform2D.self, forKey: .preferredTransform) ?? .identity
        preferredVolume = try container.decodeIfPresent(Double.self, forKey: .preferredVolume) ?? 1.0
        naturalTimeScale = try container.decodeIfPresent(Int32.self, forKey: .naturalTimeScale) ?? 600
        isEnabled = try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? true
        naturalSize = try container.decodeIfPresent(Size.self, forKey: .naturalSize) ?? .zero
        languageCode = try container.decodeIfPresent(String.self, forKey: .languageCode)
        metadata = try container.decodeIfPresent([MetadataItem].self, forKey: .metadata) ?? []
        // Picture facts out of any real picture's range would trap the display-size arithmetic: name the field.
        var problems: [(String, String)] = []
        if let reason = PictureFacts.problem(size: naturalSize) { problems.append(("naturalSize", reason)) }
        if let reason = PictureFacts.problem(transform: preferredTransform) { problems.append(("preferredTransform", reason)) }
        for (index, segment) in segments.enumerated() {
            if let source = segment.sourceTrack, let (field, reason) = PictureFacts.problem(source: source) {
                problems.append(("segments[\(index)].sourceTrack.\(field)", reason))
            }
        }
        if let (field, reason) = problems.first {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath, debugDescription: "track \(trackID): \(field) \(reason)"))
        }
    }

    /// Encodes every property (``languageCode`` only when set, ``metadata`` only when not empty).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(trackID, forKey: .trackID)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encode(segments, forKey: .segments)
        try container.encode(preferredTransform, forKey: .preferredTransform)
        try container.encode(preferredVolume, forKey: .preferredVolume)
        try container.encode(naturalTimeScale, forKey: .naturalTimeScale)
        try container.encode(isEnabled, forKey: .isEnabled)
        try container.encode(naturalSize, forKey: .naturalSize)
        try container.encodeIfPresent(languageCode, forKey: .languageCode)
        if !metadata.isEmpty { try container.encode(metadata, forKey: .metadata) }
    }
}
