import Composition

/// The chapters an export writes, as plain data: the chapters asked for (``AssetExportSession/chapterMetadataGroups``,
/// already in output time), or else the track through whose segments its sources' chapters are carried. The sources'
/// chapters are read when the file is written (``CarriedChapters``), as the carried container metadata is.
struct ChapterPlan: Sendable, Hashable {
    /// Chapters in output time, clipped to the export range.
    var requested: [TimedMetadataGroup] = []
    /// When none were asked for: the composition track, on the export's clock, whose segments' sources give their
    /// chapters (placed by ``SourceTimePlacement``); nil for none.
    var carriedThrough: RenderTrack?
}
