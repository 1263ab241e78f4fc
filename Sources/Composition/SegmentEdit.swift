/// A planned change to a track's segment list: replace `replacedRange` with `replacement`, then give the segments
/// after it the new target starts `laterStarts` (in order), then drop trailing empty segments.
struct SegmentEdit {
    /// The indices of the segments replaced.
    var replacedRange: Range<Int>
    /// The segments put in their place (already cut, retimed and merged).
    var replacement: [CompositionTrackSegment]
    /// The new target start of each segment after `replacedRange`.
    var laterStarts: [MediaTime]
    /// A source whose properties an empty track adopts.
    var adoptedSource: AssetTrack?
}
