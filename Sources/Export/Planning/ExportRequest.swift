import AudioMix
import Composition
import Foundation
import VideoComposition

/// What the caller of an export asked for, as plain data: the settable properties of ``AssetExportSession``, read
/// once by ``ExportPlanner`` when the export starts.
struct ExportRequest: Sendable {
    var outputURL: URL?
    var outputFileType: FileType?
    var videoComposition: MutableVideoComposition?
    var audioMix: MutableAudioMix?
    /// The part of the composition to export; the default (from zero, infinite) is the whole composition.
    var timeRange: TimeRange = TimeRange(start: .zero, duration: .positiveInfinity)
    var metadata: [MetadataItem] = []
    /// See ``AssetExportSession/carriesSourceMetadata``.
    var carriesSourceMetadata = true
    /// ``AssetExportSession/chapterMetadataGroups``, in composition time.
    var chapterMetadataGroups: [TimedMetadataGroup] = []
    /// ``AssetExportSession/timedMetadataGroups``, in composition time.
    var timedMetadataGroups: [TimedMetadataGroup] = []
    /// ``AssetExportSession/subtitleCodec``: nil for the container's preferred one.
    var subtitleCodec: SubtitleCodec?
    var shouldOptimizeForNetworkUse = true
    /// ``AssetExportSession/movieFragmentInterval``: `.invalid` for a regular movie.
    var movieFragmentInterval = MediaTime.invalid
    /// Bytes.
    var fileLengthLimit: Int64?
    var overwritesExistingFile = false
    /// Set for a part of a segmented export (``SegmentPlan``): the whole export's duration. The video is encoded as
    /// an independently decodable piece — an IDR picture first, closed GOPs — on an encoder clock fixed by this
    /// duration rather than the part's, so every part has the same time base and parameter sets.
    var segmentedExportDuration: MediaTime?
    /// Smart rendering (``AssetExportSession/smartRendering``): copy untouched groups of pictures, re-encode the rest.
    var smartRendering = false
    /// Set for a piece that smart rendering re-encodes between copied packets: the copied H.264 source its encoder
    /// settings match (``SmartRenderEncoding``).
    var smartRenderPiece: JoinableStreamParameters?
    /// Set for a session whose file another writer copies into the real output (smart rendering's audio, a
    /// passthrough track rendered alone, a segmented export's audio): it writes pictures and sound only.
    var isPart = false
    /// ``AssetExportSession/passthroughAudioCuts``: how passthrough treats audio cuts off the packet grid.
    var passthroughAudioCuts = PassthroughAudioCuts.exact
    /// ``AssetExportSession/concurrentSegments``: nil or 1 for one ordinary export.
    var concurrentSegments: Int?
    /// ``AssetExportSession/customVideoCompositor``: renders every frame in place of the built-in layer compositing.
    var customVideoCompositor: (any VideoCompositing)?
    /// ``AssetExportSession/_rebuildsEffectGraphPerFrame``: the graph-per-frame path for effect ramps (benchmarks).
    var rebuildsEffectGraphPerFrame = false
    /// ``AssetExportSession/truePeakLimit``: the mix's true peaks held at or under this many dBTP; nil for none.
    var truePeakLimit: Double?

    /// True for a file another writer joins into the output (``isPart``, a segment part, a smart-rendered piece):
    /// the joining writer writes the subtitle tracks, the chapters and the carried metadata, the part none of them.
    var writesPicturesAndSoundOnly: Bool { isPart || segmentedExportDuration != nil || smartRenderPiece != nil }
}
