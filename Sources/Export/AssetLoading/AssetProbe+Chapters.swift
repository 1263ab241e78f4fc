import SpliceFFmpeg
internal import CMedia
import Composition

extension AssetProbe {
    /// The chapters of `file` (`AVFormatContext.chapters`, as libavformat reads MP4/MOV chapter lists and tracks and
    /// Matroska editions) as groups in source time: each chapter's start and end, exact in its time base, moved by
    /// `startTimeOffset` (the stream time of source time 0), with its metadata (`title`, …) as items. Chapters that
    /// end at or before they start are left out.
    static func chapters(of file: InputFile, startTimeOffset: MediaTime) -> [TimedMetadataGroup] {
        let context = file.pointer.pointee
        var groups: [TimedMetadataGroup] = []
        for index in 0..<Int(context.nb_chapters) {
            guard let chapter = context.chapters?[index]?.pointee,
                  let start = MediaTime(pts: chapter.start, timeBase: chapter.time_base),
                  let end = MediaTime(pts: chapter.end, timeBase: chapter.time_base), end > start else { continue }
            let items = MetadataDictionary.entries(chapter.metadata).map { MetadataItem(key: $0.key, value: $0.value) }
            groups.append(TimedMetadataGroup(
                timeRange: TimeRange(start: start - startTimeOffset, end: end - startTimeOffset), items: items))
        }
        return groups.sorted { $0.timeRange.start < $1.timeRange.start }
    }
}
