internal import CMedia

/// An FFmpeg error code (a negative `AVERROR` value) with FFmpeg's own message.
///
/// Internal: public errors (``ExportError``, ``AssetLoadingError``) wrap it with the file, track and operation.
/// EAGAIN and EOF are return values of the send/receive loops, not thrown.
package struct FFmpegError: Error, RawRepresentable, Hashable, CustomStringConvertible {
    /// The `AVERROR` code (negative).
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static var endOfFile: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EOF()) }
    package static var tryAgain: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EAGAIN()) }
    package static var invalidData: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_INVALIDDATA()) }
    package static var exit: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EXIT()) }
    package static func posix(_ code: Int32) -> FFmpegError { FFmpegError(rawValue: cmedia_AVERROR(code)) }

    /// The POSIX errno inside the code, when it wraps one (`AVERROR(e) == -e`).
    package var posixCode: Int32? { rawValue < 0 && rawValue > -4096 ? -rawValue : nil }

    /// FFmpeg's message for the code (`av_strerror`).
    package var description: String {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { cmedia_av_err2str(rawValue, $0.baseAddress, $0.count) }
        return String(cBuffer: buffer)
    }

    /// Throws for a negative FFmpeg return code, passes the value through otherwise.
    @discardableResult
    package static func check(_ code: Int32) throws -> Int32 {
        if code < 0 { throw FFmpegError(rawValue: code) }
        return code
    }
}
