package import CMedia

/// Owns one `AVFrame` (`av_frame_alloc` / `av_frame_free`). Re-used across decode calls: `unref()` drops the
/// buffers, keeps the struct.
package final class Frame {
    package let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame.
    /// - Throws: `FFmpegError` (ENOMEM) when allocation fails.
    package init() throws {
        guard let frame = av_frame_alloc() else { throw FFmpegError.posix(ENOMEM) }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Drops the frame's buffers (`av_frame_unref`); the frame can be filled again.
    package func unref() { av_frame_unref(pointer) }

    /// Makes this frame reference the same buffers as `other` (`av_frame_ref`), after dropping its own.
    package func reference(_ other: Frame) throws {
        av_frame_unref(pointer)
        try FFmpegError.check(av_frame_ref(pointer, other.pointer))
    }

    /// Moves `other`'s buffers into this frame (`av_frame_move_ref`); `other` is left empty.
    package func take(from other: Frame) {
        av_frame_unref(pointer)
        av_frame_move_ref(pointer, other.pointer)
    }

    /// A new frame referencing the same buffers (`av_frame_clone` semantics, through `reference`).
    package func clone() throws -> Frame {
        let copy = try Frame()
        try copy.reference(self)
        return copy
    }

    package var width: Int { Int(pointer.pointee.width) }
    package var height: Int { Int(pointer.pointee.height) }
    package var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }
    package var bestEffortTimestamp: Int64 { pointer.pointee.best_effort_timestamp }
    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    package var hasData: Bool { pointer.pointee.data.0 != nil || pointer.pointee.buf.0 != nil }
}
