import Composition
import Delivery
import Export

/// The export settings of a document: an AVFoundation preset or explicit encoder settings, the container, the part
/// of the composition to write and container metadata — the properties of an ``AssetExportSession``.
///
/// ```json
/// "export": { "preset": "AVAssetExportPreset1280x720", "fileType": "mp4", "metadata": { "title": "Holiday" } }
/// "export": { "settings": { "video": { "rateControl": { "constantQuality": 20 }, "encoderPreset": "fast" } } }
/// ```
///
/// When loaded from a document, a preset may be written without its `AVAssetExportPreset` prefix (`"1280x720"`,
/// `"HighestQuality"`); `settings` may leave fields out (each takes the ``ExportSettings`` default, and
/// `"video": null` leaves the video out); `rateControl` may be written `{"constantQuality": 20}` or
/// `{"averageBitRate": 4000000}`; `metadata` may be an object of key/value strings.
public struct DocumentExport: Sendable, Hashable, Codable {
    /// An AVFoundation preset; set this or ``settings``, not both. Neither: ``ExportSettings`` defaults.
    public var preset: ExportPreset?
    /// Explicit encoder settings; set this or ``preset``, not both.
    public var settings: ExportSettings?
    /// The container; nil picks it from the output file's extension.
    public var fileType: FileType?
    /// The part of the composition to export (composition time); nil for all of it.
    public var timeRange: TimeRange?
    /// Container metadata (`title`, `comment`, …); nil for none.
    public var metadata: [MetadataItem]?
    /// Put the index before the media data (`moov` first) for progressive playback; nil for true.
    public var optimizeForNetworkUse: Bool?
    /// Write a fragmented MP4/MOV, a movie fragment beginning on a key frame every this much movie time
    /// (``AssetExportSession/movieFragmentInterval``: `"2s"`): memory stays flat over long exports and a killed
    /// export leaves a file that plays up to its last fragment; nil for a regular movie.
    public var movieFragmentInterval: MediaTime?
    /// The largest file to write, in bytes; the export stops at a frame boundary before it (AVFoundation's
    /// `fileLengthLimit`). nil for no limit.
    public var fileLengthLimit: Int64?
    /// Copy the untouched groups of pictures of the video and re-encode only the rest
    /// (``AssetExportSession/smartRendering``); nil for false.
    public var smartRendering: Bool?
    /// With the `Passthrough` preset, how an audio track cut off its source's packet grid is written
    /// (``AssetExportSession/passthroughAudioCuts``): `"exact"` re-encodes it so every cut is exact to the sample,
    /// `"nearestPacket"` copies its packets untouched, each cut at the nearest packet boundary; nil for `"exact"`.
    public var passthroughAudioCuts: PassthroughAudioCuts?
    /// Render the video as this many segments at once and join them (``AssetExportSession/concurrentSegments``:
    /// memory of about N exports, worth it only when the encoder cannot use the cores by itself); nil or 1 for one
    /// ordinary export.
    public var concurrentSegments: Int?
    /// Normalise the audio mix to an EBU R128 integrated loudness and true-peak ceiling, in two passes
    /// (``Delivery/LoudnessNormalization``: `{"integratedLoudness": -16, "truePeakCeiling": -1}`); nil leaves the mix
    /// as it is. `splice export` applies it; in Swift, export the session with
    /// ``Export/AssetExportSession/export(normalizingLoudness:)``.
    public var loudness: LoudnessNormalization?
    /// The text format of the subtitle tracks (``AssetExportSession/subtitleCodec``); nil for the container's own.
    public var subtitleCodec: SubtitleCodec?
    /// Chapters to write, in composition time (``AssetExportSession/chapterMetadataGroups``); nil for none.
    public var chapters: [TimedMetadataGroup]?
    /// Whether the output carries its first video source's container metadata (creation date, location, make,
    /// model, …) beneath ``metadata`` (``AssetExportSession/carriesSourceMetadata``); nil for true.
    public var carriesSourceMetadata: Bool?
    /// An adaptive-bitrate package (HLS and/or DASH over CMAF) instead of one file: `{"hls": "show", "dash":
    /// "show", "ladder": "720p:3M,480p:1200k", "segmentDuration": "4s"}` (``DocumentPackage``); nil for a file.
    /// The fields that shape one file (preset, settings, container, loudness, …) do not apply to a package and are
    /// refused beside it.
    public var package: DocumentPackage?

    /// Export settings; every part optional.
    public init(
        preset: ExportPreset? = nil, settings: ExportSettings? = nil, fileType: FileType? = nil, timeRange: TimeRange? = nil,
        metadata: [MetadataItem]? = nil, optimizeForNetworkUse: Bool? = nil, fileLengthLimit: Int64? = nil,
        smartRendering: Bool? = nil, passthroughAudioCuts: PassthroughAudioCuts? = nil, concurrentSegments: Int? = nil,
        loudness: LoudnessNormalization? = nil, package: DocumentPackage? = nil
    ) {
        self.preset = preset
        self.settings = settings
        self.fileType = fileType
        self.timeRange = timeRange
        self.metadata = metadata
        self.optimizeForNetworkUse = optimizeForNetworkUse
        self.fileLengthLimit = fileLengthLimit
        self.smartRendering = smartRendering
        self.passthroughAudioCuts = passthroughAudioCuts
        self.concurrentSegments = concurrentSegments
        self.loudness = loudness
        self.package = package
    }

    /// The members that shape one exported file, each with whether the document sets it: a package, which has its
    /// own ladder and encodes the whole composition, does not read them.
    var fileExportMembers: [(name: String, isSet: Bool)] {
        [("preset", preset != nil), ("settings", settings != nil), ("fileType", fileType != nil), ("timeRange", timeRange != nil),
         ("metadata", metadata != nil), ("optimizeForNetworkUse", optimizeForNetworkUse != nil),
         ("movieFragmentInterval", movieFragmentInterval != nil),
         ("fileLengthLimit", fileLengthLimit != nil), ("smartRendering", smartRendering != nil),
         ("passthroughAudioCuts", passthroughAudioCuts != nil), ("concurrentSegments", concurrentSegments != nil),
         ("loudness", loudness != nil), ("subtitleCodec", subtitleCodec != nil), ("chapters", chapters != nil),
         ("carriesSourceMetadata", carriesSourceMetadata != nil)]
    }
}
