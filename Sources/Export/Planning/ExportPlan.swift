import SpliceFFmpeg
import Composition
import Foundation

/// A fully checked export: the render plans plus where and how to write them. Made by ``ExportPlanner`` before any
/// file is touched: plain data. ``ExportJob`` runs it; ``describeGraphs()`` shows the graphs it compiles to.
struct ExportPlan: Sendable {
    var video: VideoPlan?
    var audio: AudioPlan?
    var settings: ExportSettings
    var fileType: FileType
    var outputURL: URL
    var overwritesExistingFile: Bool
    var metadata: [(String, String)]
    var optimizeForNetworkUse: Bool
    /// Set for a fragmented movie (``AssetExportSession/movieFragmentInterval``, checked for the container): written
    /// under its own name from the start, a fragment every interval.
    var movieFragmentInterval: MediaTime?
    var fileLengthLimit: Int64?
    /// Set for the passthrough preset: packets are copied instead of rendered.
    var passthrough: PassthroughPlan?
    /// Set for a joinable segment part: the whole export's duration (see ``ExportRequest/segmentedExportDuration``).
    var segmentedExportDuration: MediaTime?
    /// Set when smart rendering was asked for (``AssetExportSession/smartRendering``): the job plans the copied and
    /// re-encoded spans (``smartRenderReport(cancellation:)``) before rendering.
    var smartRendering = false
    /// Set for a piece smart rendering re-encodes (``ExportRequest/smartRenderPiece``).
    var smartRenderPiece: JoinableStreamParameters?
    /// The subtitle tracks written beside the picture and sound (none for segment parts and smart-rendered pieces).
    var subtitles: [SubtitleTrackPlan] = []
    /// The chapters written (none for parts another writer joins).
    var chapters = ChapterPlan()
    /// The timed metadata tracks written (``ExportPlanner/timedMetadataPlan(in:fileType:)``; none for parts another
    /// writer joins).
    var timedMetadata = TimedMetadataPlan()
    /// The file whose container metadata is carried beneath ``metadata`` (``AssetExportSession/carriesSourceMetadata``),
    /// or nil.
    var sourceMetadataURL: URL?
    /// The output video stream's tags (``ExportPlanner/streamMetadata(of:range:fileType:)``), checked for the container.
    var videoStreamMetadata: [MetadataItem] = []
    /// The output audio stream's tags, as ``videoStreamMetadata``.
    var audioStreamMetadata: [MetadataItem] = []
}
