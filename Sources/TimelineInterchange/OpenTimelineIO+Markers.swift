import Composition
import SpliceDocument

extension OpenTimelineIO {
    /// The metadata keys of a chapter made from a marker, besides `title` (the marker's name): OpenTimelineIO's
    /// fields that a chapter has no place for.
    enum ChapterKey {
        /// The marker's colour name (`RED`, `GREEN`, …).
        static let color = "color"
        /// The marker's comment.
        static let comment = "comment"
        /// Present (`"0"`) when the marker marks a point: its chapter runs on to the next marker or the end.
        static let markedDuration = "markedDuration"
    }

    /// The chapters standing for `markers` (composition time), in time order: each marker's range, its name as the
    /// `title`, its colour and comment as items of their own. A chapter lasts more than 0 s, so a point marker's runs
    /// to the next later marker's start, or to `end` (one `frame` when it is at or past the end; the export then
    /// leaves it out), and says so with a `markedDuration` of 0.
    static func chapters(for markers: [Marker], end: MediaTime, frame: MediaTime) -> [TimedMetadataGroup] {
        let ordered = markers.enumerated().sorted {
            ($0.element.timeRange.start, $0.offset) < ($1.element.timeRange.start, $1.offset)
        }.map(\.element)
        return ordered.map { marker in
            var items = [MetadataItem(key: "title", value: marker.name)]
            if let color = marker.color { items.append(MetadataItem(key: ChapterKey.color, value: color)) }
            if let comment = marker.comment { items.append(MetadataItem(key: ChapterKey.comment, value: comment)) }
            var range = marker.timeRange
            if range.duration == .zero {
                items.append(MetadataItem(key: ChapterKey.markedDuration, value: "0"))
                let next = ordered.lazy.map(\.timeRange.start).first { $0 > range.start } ?? end
                range.duration = next > range.start ? next - range.start : frame
            }
            return TimedMetadataGroup(timeRange: range, items: items)
        }
    }

    /// The markers standing for `chapters` (the inverse of ``chapters(for:end:frame:)``): the `title` as the name
    /// (empty without one), the `color` and `comment` items, a zero duration where `markedDuration` is 0.
    static func markers(for chapters: [TimedMetadataGroup]) -> [Marker] {
        chapters.map { chapter in
            func item(_ key: String) -> String? { chapter.items.first { $0.key == key }?.value }
            var range = chapter.timeRange
            if item(ChapterKey.markedDuration) == "0" { range.duration = .zero }
            return Marker(name: chapter.title ?? "", timeRange: range, color: item(ChapterKey.color),
                          comment: item(ChapterKey.comment), path: DocumentPath())
        }
    }
}
