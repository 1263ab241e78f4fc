import Foundation

/// What Splice knows about a media file: its tracks, duration and metadata, as AVFoundation's `AVAsset`.
///
/// `Asset` is plain data; `Export` fills it from a file (`try await Asset.load(from:)`, built on libavformat), and
/// it can also be built by hand or decoded from JSON, so compositions can be made and tested without FFmpeg.
public struct Asset: Sendable, Hashable, Codable {
    /// The file the asset was loaded from.
    public var url: URL
    /// The asset's duration: the end of its longest track, in source time (first presented sample = 0).
    /// ``MediaTime/positiveInfinity`` for a still image, which can be shown for any duration.
    public var duration: MediaTime
    /// Every track of the file, in file order, including ones Splice does not compose (data, subtitles).
    public var tracks: [AssetTrack]
    /// Container-level metadata (creation date, title, …) as key/value text.
    public var metadata: [MetadataItem]
    /// The file's chapters in time order, each a group with its `title` over its range in source time, as
    /// `AVAsset.chapterMetadataGroups` (MP4/MOV chapter lists and QuickTime chapter tracks, Matroska editions, as
    /// libavformat reads them).
    public var chapterMetadataGroups: [TimedMetadataGroup] = []
    /// FFmpeg's name for the container format (e.g. `"mov,mp4,m4a,3gp,3g2,mj2"`, `"png_pipe"`).
    public var formatName: String

    /// An asset description.
    public init(url: URL, duration: MediaTime, tracks: [AssetTrack], metadata: [MetadataItem] = [], formatName: String = "") {
        self.url = url
        self.duration = duration
        self.tracks = tracks
        self.metadata = metadata
        self.formatName = formatName
    }

    /// The tracks of one media type, in file order, as `AVAsset.tracks(withMediaType:)`.
    public func tracks(withMediaType mediaType: MediaType) -> [AssetTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// The track with `trackID`, or nil.
    public func track(withTrackID trackID: Int32) -> AssetTrack? {
        tracks.first { $0.trackID == trackID }
    }
}

/// One metadata entry: a key as the container names it (`creation_time`, `title`, `com.apple.quicktime.make`, …)
/// and its value as text.
public struct MetadataItem: Sendable, Hashable, Codable {
    /// The key, as FFmpeg reports it.
    public var key: String
    /// The value as text (dates stay in the container's ISO 8601 text).
    public var value: String

    /// A key/value item.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension Asset {
    private enum CodingKeys: String, CodingKey {
        case url, duration, tracks, metadata, chapterMetadataGroups, formatName
    }

    /// Decodes an asset; `url`, `duration` and `tracks` are required, `metadata`, `chapterMetadataGroups` and
    /// `formatName` default to none and empty (descriptions written before chapters were read still decode).
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(URL.self, forKey: .url), duration: try container.decode(MediaTime.self, forKey: .duration),
            tracks: try container.decode([AssetTrack].self, forKey: .tracks),
            metadata: try container.decodeIfPresent([MetadataItem].self, forKey: .metadata) ?? [],
            formatName: try container.decodeIfPresent(String.self, forKey: .formatName) ?? "")
        chapterMetadataGroups = try container.decodeIfPresent([TimedMetadataGroup].self, forKey: .chapterMetadataGroups) ?? []
    }
}
