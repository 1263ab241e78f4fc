internal import CMedia
import Composition

extension InputFile {
    /// The earliest-ending stream being read (its `discard` is not `AVDISCARD_ALL`) whose index lists samples beyond
    /// the file's end, or nil when every such stream's indexed samples are in the file (or the file's size or
    /// index is unknown).
    ///
    /// Compares each index entry's byte range (`AVIndexEntry.pos` + `size`) with the size of the file now
    /// (`avio_size`, an `fstat` of the open file, so a file cut after it was opened counts). Only containers that
    /// index their samples can tell a cut file from a short one: MP4/MOV index every sample, Matroska its cue points
    /// (a file cut after its last cue cluster is not seen), MPEG-TS and raw streams nothing.
    /// Cost: one pass over the index of each stream read.
    package func truncation() -> SourceTruncation? {
        guard let size = currentSize else { return nil }
        var earliest: SourceTruncation?
        for index in 0..<streamCount where stream(at: index).pointee.discard != AVDISCARD_ALL {
            guard let found = truncation(ofStream: index, fileSize: size) else { continue }
            if earliest.map({ found.dataEnd < $0.dataEnd }) ?? true { earliest = found }
        }
        return earliest
    }

    /// Stream `index`'s truncation as ``truncation()`` finds it, or nil.
    package func truncation(ofStream index: Int) -> SourceTruncation? {
        guard index >= 0, index < streamCount, let size = currentSize else { return nil }
        return truncation(ofStream: index, fileSize: size)
    }

    /// The file's size in bytes now (`avio_size`), nil when unknown (no byte stream, or not seekable).
    private var currentSize: Int64? {
        guard let io = pointer.pointee.pb else { return nil }
        let size = avio_size(io)
        return size > 0 ? size : nil
    }

    private func truncation(ofStream index: Int, fileSize: Int64) -> SourceTruncation? {
        let stream = self.stream(at: index)
        let count = avformat_index_get_entries_count(stream)
        guard count > 0 else { return nil }
        var firstMissing: Int64?
        var lastTimestamp: Int64?
        var needed: Int64 = 0
        for position in 0..<count {
            guard let entry = avformat_index_get_entry(stream, position)?.pointee, entry.pos >= 0,
                  entry.timestamp != cmedia_AV_NOPTS_VALUE() else { continue }
            let end = entry.pos + Int64(max(entry.size, 0))
            needed = max(needed, end)
            lastTimestamp = max(lastTimestamp ?? entry.timestamp, entry.timestamp)
            if end > fileSize || entry.pos >= fileSize {
                firstMissing = min(firstMissing ?? entry.timestamp, entry.timestamp)
            }
        }
        let timeBase = stream.pointee.time_base
        guard let firstMissing, let lastTimestamp, let dataEnd = MediaTime(pts: firstMissing, timeBase: timeBase),
              let indexedEnd = MediaTime(pts: lastTimestamp, timeBase: timeBase) else { return nil }
        return SourceTruncation(streamIndex: index, dataEnd: dataEnd, indexedEnd: indexedEnd,
                                fileSize: fileSize, indexedSize: needed)
    }
}
