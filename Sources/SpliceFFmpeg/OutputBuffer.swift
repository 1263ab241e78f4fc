package import CMedia

/// Owns a write-only `AVIOContext` that collects in memory what a muxer writes, for output that is not a file (the
/// segments of a fragmented MP4, handed to the caller as they are made).
///
/// Wraps `avio_alloc_context` with a write callback (no read, no seek: the muxer sees a non-seekable output) and an
/// `av_malloc`'d I/O buffer of `bufferSize` bytes; `deinit` frees the context's buffer (`av_freep`) and the context
/// (`avio_context_free`). An ``OutputFile`` made over it (``OutputFile/init(formatName:writingTo:)``) keeps it alive.
/// Confined to one thread; not `Sendable`.
package final class OutputBuffer {
    /// The context. Non-nil for the owner's lifetime; freed only by `deinit`.
    package let pointer: UnsafeMutablePointer<AVIOContext>
    private let collected: Collected

    /// The bytes the write callback has received and ``takeBytes()`` has not yet returned.
    final class Collected {
        var bytes: [UInt8] = []
    }

    /// A context with an I/O buffer of `bufferSize` bytes (64 KiB by default).
    /// - Throws: ``FFmpegError`` `ENOMEM` when FFmpeg cannot allocate the buffer or the context.
    package init(bufferSize: Int = 64 * 1024) throws {
        collected = Collected()
        guard let buffer = av_malloc(bufferSize) else { throw FFmpegError.posix(ENOMEM) }
        guard let context = cmedia_avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), Unmanaged.passUnretained(collected).toOpaque(),
            outputBufferWrite)
        else {
            av_free(buffer)
            throw FFmpegError.posix(ENOMEM)
        }
        pointer = context
    }

    deinit {
        av_freep(&pointer.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = pointer
        avio_context_free(&context)
    }

    /// Pushes what is still in the I/O buffer through the write callback (`avio_flush`) and returns every byte
    /// written since the previous call, in order.
    package func takeBytes() -> [UInt8] {
        avio_flush(pointer)
        defer { collected.bytes = [] }
        return collected.bytes
    }
}

/// The `AVIOContext` write callback: appends `size` bytes to the ``OutputBuffer/Collected`` named by `opaque`.
private func outputBufferWrite(_ opaque: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let bytes, size > 0 else { return 0 }
    Unmanaged<OutputBuffer.Collected>.fromOpaque(opaque).takeUnretainedValue()
        .bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(size)))
    return size
}
