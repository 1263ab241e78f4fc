internal import CMedia

/// An FFmpeg error code (a negative `AVERROR` value) with FFmpeg's own message.
///
/// Internal: public errors (``ExportError``, ``AssetLoadingError``) wrap it with the file, track and operation.
/// EAGAIN and EOF are return values of the send/receive loops, not thrown.
package struct FFmpegError: Error, RawRepresentable, Hashable, CustomStringConvertible {
    /// The `AVERROR` code (negative).
    package let rawValue: Int32
    /// The C function that returned the code (`"avformat_write_header"`), when the thrower named it: it is in
    /// ``description`` (for the log and for bug reports), never part of equality.
    package let function: String?

    package init(rawValue: Int32) { self.init(rawValue: rawValue, function: nil) }

    /// The code `rawValue` returned by the C function `function`.
    package init(rawValue: Int32, function: String?) {
        self.rawValue = rawValue
        self.function = function
    }

    /// Equal codes are the same error, whichever function returned them (`error == .exit`).
    package static func == (lhs: FFmpegError, rhs: FFmpegError) -> Bool { lhs.rawValue == rhs.rawValue }
    package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    package static var endOfFile: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EOF()) }
    package static var tryAgain: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EAGAIN()) }
    package static var invalidData: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_INVALIDDATA()) }
    package static var exit: FFmpegError { FFmpegError(rawValue: cmedia_AVERROR_EXIT()) }
    package static func posix(_ code: Int32) -> FFmpegError { FFmpegError(rawValue: cmedia_AVERROR(code)) }

    /// The POSIX errno inside the code, when it wraps one (`AVERROR(e) == -e`).
    package var posixCode: Int32? { rawValue < 0 && rawValue > -4096 ? -rawValue : nil }

    /// FFmpeg's message for the code (`av_strerror`), with the function that returned it when known
    /// (`"No space left on device (av_interleaved_write_frame)"`).
    package var description: String { function.map { "\(message) (\($0))" } ?? message }

    /// FFmpeg's message for the code alone (`av_strerror`).
    package var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { cmedia_av_err2str(rawValue, $0.baseAddress, $0.count) }
        return String(cBuffer: buffer)
    }

    /// Throws for a negative FFmpeg return code, recording `function`, the C function that returned it; passes the
    /// value through otherwise.
    @discardableResult
    package static func check(_ code: Int32, in function: String? = nil) throws -> Int32 {
        if code < 0 { throw FFmpegError(rawValue: code, function: function) }
        return code
    }
}
