import Foundation
import SpliceFFmpeg
import Composition

/// The chapters of a ``ChapterPlan`` in output time: the requested ones, or the sources' chapters carried through a
/// track's segments.
///
/// Each segment's source file is opened once and its chapters read as `Asset.load` reads them (libavformat's chapter
/// list: MP4/MOV chapter lists and tracks, Matroska editions), in the source track's time; they are then placed like
/// subtitle cues (``SourceTimePlacement``): clipped by cuts, moved with ripples and empty ranges, scaled with
/// `scaleTimeRange`, left out when cut away entirely or shown only by a segment with a time effect, the pieces of one
/// chapter that meet again joined, times in milliseconds.
enum CarriedChapters {
    /// - Throws: ``ExportError`` naming a source that cannot be opened; `CancellationError`.
    static func chapters(_ plan: ChapterPlan, cancellation: CancellationFlag) throws -> [TimedMetadataGroup] {
        guard let track = plan.carriedThrough else { return plan.requested }
        var cache: [String: [TimedMetadataGroup]] = [:]
        return try SourceTimePlacement.placeGroups(track.segments) { source in
            let key = "\(source.assetURL.path)@\(source.startTimeOffset)"
            let chapters: [TimedMetadataGroup]
            if let cached = cache[key] {
                chapters = cached
            } else {
                let file: InputFile
                do {
                    file = try InputFile(url: source.assetURL, cancellation: cancellation)
                } catch {
                    throw ExportError.reading(error, source: source.assetURL)
                }
                chapters = AssetProbe.chapters(of: file, startTimeOffset: source.startTimeOffset)
                cache[key] = chapters
            }
            return chapters
        }
    }
}
