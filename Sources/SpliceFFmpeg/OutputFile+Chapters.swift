internal import CMedia

extension OutputFile {
    /// Adds a chapter to the file (an `AVChapter` appended to `AVFormatContext.chapters`, as the `ffmpeg` tool copies
    /// chapters): the format context takes ownership of it and its metadata, and `avformat_free_context` frees them.
    /// The MP4/MOV muxer writes chapters as a QuickTime chapter track and a Nero `chpl` list, Matroska as an
    /// edition. Call before ``writeHeader(options:)``.
    /// - Parameters:
    ///   - start: the chapter's start in milliseconds.
    ///   - end: its end in milliseconds, after `start`.
    ///   - metadata: its items (`title`, …).
    /// - Throws: ``FFmpegError`` `ENOMEM`.
    package func addChapter(start: Int64, end: Int64, metadata: [(String, String)]) throws {
        let count = Int(pointer.pointee.nb_chapters)
        guard let chapter = av_mallocz(MemoryLayout<AVChapter>.size)?.assumingMemoryBound(to: AVChapter.self) else {
            throw FFmpegError.posix(ENOMEM)
        }
        guard let grown = av_realloc_array(pointer.pointee.chapters, count + 1, MemoryLayout<UnsafeMutablePointer<AVChapter>?>.size)?
            .assumingMemoryBound(to: UnsafeMutablePointer<AVChapter>?.self) else {
            av_free(chapter)
            throw FFmpegError.posix(ENOMEM)
        }
        pointer.pointee.chapters = grown
        chapter.pointee.id = Int64(count + 1)
        chapter.pointee.time_base = AVRational(num: 1, den: 1000)
        chapter.pointee.start = start
        chapter.pointee.end = end
        for (key, value) in metadata { av_dict_set(&chapter.pointee.metadata, key, value, 0) }
        grown[count] = chapter
        pointer.pointee.nb_chapters = UInt32(count + 1)
    }
}
