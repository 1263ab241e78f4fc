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
            var items: [MetadataItem] = []
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let next = av_dict_get(chapter.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
                entry = next
                guard let key = next.pointee.key else { continue }
                items.append(MetadataItem(key: String(cString: key), value: next.pointee.value.map { String(cString: $0) } ?? ""))
            }
            groups.append(TimedMetadataGroup(
                timeRange: TimeRange(start: start - startTimeOffset, end: end - startTimeOffset), items: items))
        }
        return groups.sorted { $0.timeRange.start < $1.timeRange.start }
    }
}
