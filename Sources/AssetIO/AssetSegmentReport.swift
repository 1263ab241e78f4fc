import Composition

/// The segment format of an ``AssetWriter`` made with ``AssetWriter/init(contentType:)`` (AVFoundation's
/// `AVFileTypeProfile`): fragmented MPEG-4 either way, written by libavformat's `mp4` muxer.
public enum AssetWriterFileTypeProfile: Sendable, Hashable {
    /// Fragmented MP4 for HTTP Live Streaming (AVFoundation's `.mpeg4AppleHLS`): the muxer's `dash` fragments
    /// (brands `iso6`, a `sidx` per segment), as FFmpeg's own HLS muxer writes them.
    case mpeg4AppleHLS
    /// CMAF (ISO/IEC 23000-19; AVFoundation's `.mpeg4CMAFCompliant`): the muxer's `cmaf` fragments (brand `cmfc`,
    /// signed composition offsets instead of an edit list for B-frames).
    case mpeg4CMAFCompliant
}

/// What a segment handed to an ``AssetWriterDelegate`` is (AVFoundation's `AVAssetSegmentType`).
public enum AssetSegmentType: Sendable, Hashable {
    /// The initialization segment (`ftyp` + `moov`): the tracks' descriptions, no samples. Delivered once, first.
    case initialization
    /// A media segment (`moof` + `mdat`) that plays after the initialization segment alone (every track's first
    /// video sample is a key frame).
    case separable
}

/// What a media segment holds (AVFoundation's `AVAssetSegmentReport`).
public struct AssetSegmentReport: Sendable, Hashable {
    /// Always ``AssetSegmentType/separable`` (no report comes with the initialization segment).
    public var segmentType: AssetSegmentType
    /// Which media segment this is: 0 for the first, counting up.
    public var sequenceNumber: Int
    /// One per track with samples in the segment, in track order.
    public var trackReports: [AssetSegmentTrackReport]

    /// A report.
    public init(segmentType: AssetSegmentType, sequenceNumber: Int, trackReports: [AssetSegmentTrackReport]) {
        self.segmentType = segmentType
        self.sequenceNumber = sequenceNumber
        self.trackReports = trackReports
    }

    /// The segment's duration as a playlist states it: the first video track's span, else the first track's
    /// (zero for a report without tracks).
    public var duration: MediaTime {
        (trackReports.first { $0.mediaType == .video } ?? trackReports.first)?.duration ?? .zero
    }
}

/// One track's samples in a media segment (AVFoundation's `AVAssetSegmentTrackReport`). Times are on the segments'
/// timeline: a sample appended at time T is at T − the session start + ``AssetWriter/initialSegmentStartTime``.
public struct AssetSegmentTrackReport: Sendable, Hashable {
    /// The track's ID in the initialization segment's `moov` (the input's position in ``AssetWriter/inputs`` + 1).
    public var trackID: Int32
    /// Video or audio.
    public var mediaType: MediaType
    /// The earliest presentation time of the track's samples in the segment (exact).
    public var earliestPresentationTimeStamp: MediaTime
    /// From ``earliestPresentationTimeStamp`` to the latest end (presentation time + duration) of its samples: for
    /// the video track, the time to the next segment's first picture (exact).
    public var duration: MediaTime
    /// How many samples (pictures, or compressed audio frames).
    public var sampleCount: Int
    /// True when the track's first sample in the segment is a sync sample (a key frame; always true for video).
    public var firstSampleIsSyncSample: Bool

    /// A track report.
    public init(trackID: Int32, mediaType: MediaType, earliestPresentationTimeStamp: MediaTime, duration: MediaTime,
                sampleCount: Int, firstSampleIsSyncSample: Bool) {
        self.trackID = trackID
        self.mediaType = mediaType
        self.earliestPresentationTimeStamp = earliestPresentationTimeStamp
        self.duration = duration
        self.sampleCount = sampleCount
        self.firstSampleIsSyncSample = firstSampleIsSyncSample
    }
}
