internal import CMedia

/// An FFmpeg error code (a negative `AVERROR` value) with FFmpeg's own message.
///
/// Internal: public errors (``ExportError``, ``AssetLoadingError``) wrap it with the file, track and operation.
/// EAGAIN and EOF are return values of the send/receive loops, not thrown.
struct FFmpegError: Error, RawRepresentable, Hashable, CustomStringConvertible {
    /// The `AVERROR` code (negative).
    let rawValue: Int32

    init(rawValue: Int32) { self.rawValue = rawValue }

    static var endOfFile: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EOF()) }
    static var tryAgain: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EAGAIN()) }
    static var invalidData: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_INVALIDDATA()) }
    static var exit: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EXIT()) }
    static func posix(_ code: Int32) -> FFmpegError { FFmpegError(rawValue: cmedia_AVERROR(code)) }

    /// The POSIX errno inside the code, when it wraps one (`AVERROR(e) == -e`).
    var posixCode: Int32? { rawValue < 0 && rawValue > -4096 ? -rawValue : nil }

    /// FFmpeg's message for the code (`av_strerror`).
    var description: String {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { cmedia_av_err2str(rawValue, $0.baseAddress, $0.count) }
        return String(cBuffer: buffer)
    }

    /// Throws for a negative FFmpeg return code, passes the value through otherwise.
    @discardableResult
    static func check(_ code: Int32) throws -> Int32 {
        if code < 0 { throw FFmpegError(rawValue: code) }
        return code
    }
}
