import Composition
import Foundation

extension MutableComposition {
    /// The file of the first segment with media that shows in `range`: among the enabled video tracks, or the
    /// enabled audio tracks when no video track has media there. The earliest segment wins; at equal times, the
    /// track that comes first. Nil when no segment has media in `range`.
    func firstSourceURL(in range: TimeRange) -> URL? {
        for mediaType in [MediaType.video, .audio] {
            var first: (start: MediaTime, url: URL)?
            for track in tracks(withMediaType: mediaType) where track.isEnabled {
                for segment in track.segments {
                    guard let url = segment.sourceURL else { continue }
                    let target = segment.timeMapping.target
                    guard target.end > range.start, target.start < range.end else { continue }
                    let start = Swift.max(target.start, range.start)
                    if first.map({ start < $0.start }) ?? true { first = (start, url) }
                    break
                }
            }
            if let first { return first.url }
        }
        return nil
    }
}
