/// The facts about a composition that video-composition and audio-mix code needs (for `propertiesOf` defaults and
/// for validation), as plain data: the duration and, per track, its ID, media type, extent, picture geometry,
/// source frame timing and the spans of its segments.
///
/// A summary decouples `VideoComposition` and `AudioMix` from how a composition is edited: it is made from a
/// `MutableComposition` (one line per field), or by hand in tests and tools. All times are composition times.
public struct CompositionSummary: Sendable, Hashable, Codable {
    /// One segment's place on the composition timeline.
    public struct Segment: Sendable, Hashable, Codable {
        /// The composition time range the segment occupies.
        public var target: TimeRange
        /// True for an empty edit (a gap: black video / silence), as `CompositionTrackSegment.isEmpty`.
        public var isEmpty: Bool

        /// A segment span.
        public init(target: TimeRange, isEmpty: Bool = false) {
            self.target = target
            self.isEmpty = isEmpty
        }
    }

    /// One composition track.
    public struct Track: Sendable, Hashable, Codable {
        /// The track's ID in the composition (≥ 1).
        public var trackID: Int32
        /// Video, audio, …
        public var mediaType: MediaType
        /// The composition time range the track spans (from 0 to the end of its last segment).
        public var timeRange: TimeRange
        /// The segments in time order.
        public var segments: [Segment]
        /// False for a track the user disabled (it is neither drawn nor heard), as `AVAssetTrack.isEnabled`.
        public var isEnabled: Bool
        /// Coded picture size in pixels (video), as `AVAssetTrack.naturalSize`; `.zero` for other tracks.
        public var naturalSize: Size
        /// Pixel aspect ratio of the coded pictures (video).
        public var pixelAspectRatio: PixelAspectRatio
        /// Maps the square-pixel coded picture onto the upright display picture, as `AVAssetTrack.preferredTransform`
        /// (e.g. `(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0)` for a 568 × 320 iPhone clip shot in portrait).
        public var preferredTransform: AffineTransform2D
        /// The shortest frame duration among the track's sources (exact), when known.
        public var minFrameDuration: MediaTime?
        /// The sources' average frame rate in frames per second, when known (display only).
        public var nominalFrameRate: Double?

        /// A track description.
        public init(
            trackID: Int32, mediaType: MediaType, timeRange: TimeRange, segments: [Segment], isEnabled: Bool = true,
            naturalSize: Size = .zero, pixelAspectRatio: PixelAspectRatio = .square,
            preferredTransform: AffineTransform2D = .identity, minFrameDuration: MediaTime? = nil,
            nominalFrameRate: Double? = nil
        ) {
            self.trackID = trackID
            self.mediaType = mediaType
            self.timeRange = timeRange
            self.segments = segments
            self.isEnabled = isEnabled
            self.naturalSize = naturalSize
            self.pixelAspectRatio = pixelAspectRatio
            self.preferredTransform = preferredTransform
            self.minFrameDuration = minFrameDuration
            self.nominalFrameRate = nominalFrameRate
        }

        /// The picture's bounding box after pixel-aspect correction and ``preferredTransform``, in pixels
        /// (unrounded; its origin is where the transform puts the picture, normally `(0, 0)`).
        public var displayBounds: Rect {
            displayOrientation.apply(to: naturalSize.bounds)
        }

        /// The upright display size in pixels, rounded to whole pixels (e.g. 320 × 568 for the 568 × 320 iPhone clip
        /// rotated −90°; 1280 × 720 for a 1280 × 720 clip rotated 180°).
        public var displaySize: Size {
            let box = displayBounds
            return Size(width: Int(box.width.rounded()), height: Int(box.height.rounded()))
        }

        /// Coded pixels to display pixels: the pixel-aspect-ratio scale of x, then ``preferredTransform``.
        public var displayOrientation: AffineTransform2D {
            let horizontal = pixelAspectRatio.horizontalSpacing, vertical = pixelAspectRatio.verticalSpacing
            guard horizontal > 0, vertical > 0, horizontal != vertical else { return preferredTransform }
            return AffineTransform2D(scaleX: Double(horizontal) / Double(vertical), y: 1).concatenating(preferredTransform)
        }

        /// True when the track has a non-empty segment whose target range contains `time` (half-open).
        public func hasMedia(at time: MediaTime) -> Bool {
            segments.contains { !$0.isEmpty && $0.target.contains(time) }
        }
    }

    /// The composition's duration: the end of its longest track.
    public var duration: MediaTime
    /// The composition's own natural size in pixels, as `AVMutableComposition.naturalSize`; `.zero` when not set.
    public var naturalSize: Size
    /// The tracks, in composition order.
    public var tracks: [Track]

    /// A summary.
    ///
    /// - Parameters:
    ///   - duration: the composition duration; nil computes the latest track end (0 without tracks).
    ///   - naturalSize: the composition's natural size in pixels, `.zero` when not set.
    ///   - tracks: the tracks in composition order.
    public init(duration: MediaTime? = nil, naturalSize: Size = .zero, tracks: [Track]) {
        self.duration = duration ?? tracks.map(\.timeRange.end).filter(\.isNumeric).max() ?? .zero
        self.naturalSize = naturalSize
        self.tracks = tracks
    }

    /// The tracks of one media type, in composition order.
    public func tracks(withMediaType mediaType: MediaType) -> [Track] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// The track with `trackID`, or nil.
    public func track(withTrackID trackID: Int32) -> Track? {
        tracks.first { $0.trackID == trackID }
    }
}
