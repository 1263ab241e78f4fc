import Composition

/// The timed metadata tracks an export writes, as plain data: the groups asked for
/// (``AssetExportSession/timedMetadataGroups``, already in output time), or else the composition's enabled metadata
/// tracks, whose segments say which of their sources' groups show when. The sources' groups are read when the file
/// is written (``TimedMetadataWriter``), as the sources' chapters are.
struct TimedMetadataPlan: Sendable, Hashable {
    /// Groups in output time, clipped to the export range: written as one track. When there are any, the
    /// composition's metadata tracks are not written (the session's setting wins, as its chapters do).
    var requested: [TimedMetadataGroup] = []
    /// The composition's metadata tracks on the export's clock, each written as one track of its placed groups.
    var tracks: [RenderTrack] = []
}
