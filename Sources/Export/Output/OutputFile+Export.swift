import Foundation
import SpliceFFmpeg
import Composition

extension OutputFile {
    /// Opens the temporary file `path` for `fileType`'s muxer, for the output `url` (wraps
    /// `avformat_alloc_output_context2` and `avio_open2` through ``OutputFile``): the one way the stream-copy
    /// writers (passthrough, smart rendering, segment joins) open what they write.
    /// - Throws: ``ExportError/outputNotWritable(_:reason:)`` naming `url`'s directory and the cause
    ///   (``ExportError/openingOutput(_:for:)``).
    static func export(path: String, fileType: FileType, for url: URL, cancellation: CancellationFlag) throws -> OutputFile {
        do {
            return try OutputFile(path: path, formatName: fileType.muxerName, cancellation: cancellation)
        } catch {
            throw ExportError.openingOutput(error, for: url)
        }
    }

    /// Adds the chapters of `plan` (``CarriedChapters``) to the file, each to the millisecond
    /// (``SourceTimePlacement/milliseconds(_:)``: the MP4 chapter list's and Matroska's resolution), with its items as
    /// the chapter's metadata; a chapter shorter than a millisecond after rounding is left out. Call before the
    /// header is written.
    /// - Throws: ``ExportError`` for a source whose chapters cannot be read; ``FFmpegError`` `ENOMEM`;
    ///   `CancellationError`.
    func addChapters(_ plan: ChapterPlan, cancellation: CancellationFlag) throws {
        for chapter in try CarriedChapters.chapters(plan, cancellation: cancellation) {
            let start = SourceTimePlacement.milliseconds(chapter.timeRange.start)
            let end = SourceTimePlacement.milliseconds(chapter.timeRange.end)
            guard end > start else { continue }
            try addChapter(start: start, end: end, metadata: chapter.items.map { ($0.key, $0.value) })
        }
    }
}
