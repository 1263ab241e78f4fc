import Foundation

/// One piece of a ``CompositionTrack``: a range of a source track played over a range of composition time, or an
/// empty edit (a gap: black video, silent audio), as AVFoundation's `AVCompositionTrackSegment`.
///
/// A media segment keeps a full snapshot of its source ``AssetTrack`` (URL, track ID, time range, natural size,
/// transform, audio format, stream index), so the export engine needs nothing else to decode it and a composition
/// round-trips through JSON on its own. It plays at speed `timeMapping.source.duration / timeMapping.target.duration`.
public struct CompositionTrackSegment: Sendable, Hashable, Codable {
    /// The source track, or nil for an empty segment (a gap).
    public var sourceTrack: AssetTrack?
    /// Maps the source range (``TimeRange/invalid`` for an empty segment) onto the target range of composition time,
    /// both in seconds as exact ``MediaTime``s.
    public var timeMapping: TimeMapping
    /// How the segment plays its source range: nil for AVFoundation's linear mapping at constant forward speed,
    /// otherwise a reverse, a freeze frame or a speed ramp (``SegmentTimeEffect``). Left out of JSON when nil.
    public var timeEffect: SegmentTimeEffect?

    /// A segment that plays `timeMapping.source` of `sourceTrack` over `timeMapping.target`, as
    /// `AVCompositionTrackSegment(url:trackID:sourceTimeRange:targetTimeRange:)`. Not checked here; a track's
    /// segment list is checked by ``CompositionTrack/validateSegments(_:trackID:mediaType:)``.
    ///
    /// `timeEffect` (nil by default) plays the range in reverse, holds one frame, or ramps the speed.
    public init(sourceTrack: AssetTrack, timeMapping: TimeMapping, timeEffect: SegmentTimeEffect? = nil) {
        self.sourceTrack = sourceTrack
        self.timeMapping = timeMapping
        self.timeEffect = timeEffect
    }

    /// An empty segment (a gap) over `emptyTimeRange` of composition time, as
    /// `AVCompositionTrackSegment(timeRange:)`.
    public init(emptyTimeRange: TimeRange) {
        self.sourceTrack = nil
        self.timeMapping = TimeMapping(emptyTarget: emptyTimeRange)
    }

    /// True for an empty segment (no source track): it shows black / plays silence.
    public var isEmpty: Bool { sourceTrack == nil }

    /// The source file's URL, or nil for an empty segment (AVFoundation's `sourceURL`).
    public var sourceURL: URL? { sourceTrack?.assetURL }

    /// The source track's ID within its file, or nil for an empty segment (AVFoundation's `sourceTrackID`).
    public var sourceTrackID: Int32? { sourceTrack?.trackID }

    /// True when the source is a still image (``VideoTrackFormat/isStillImage``): it shows one picture for the whole
    /// target range, so its speed has no visible meaning and is not limited.
    public var isStillImage: Bool { sourceTrack?.video?.isStillImage ?? false }
}
