import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The words every engine uses for why reading or writing a file failed, so the same cause reads the same from
/// Export and Capture ("the disk is full" whether an export, a stream copy or a recording hit it). Public errors
/// (`ExportError.writeFailed`, `CaptureRecordingError.writeFailed`) carry these as their reason.
package enum FailureReason {
    /// The words for a POSIX `errno` of a file operation: the conditions a user can act on named (a full disk, an
    /// exhausted quota, a file too large, an I/O error, a read-only file system, no permission, a missing
    /// directory), the C library's `strerror` text otherwise.
    package static func words(errno code: Int32) -> String {
        switch code {
        case ENOSPC: return "the disk is full"
        case EDQUOT: return "the disk quota is exhausted"
        case EFBIG: return "the file is too large for this file system or limit"
        case EIO: return "an input/output error on the device"
        case EROFS: return "the file system is read-only"
        case EACCES, EPERM: return "permission denied"
        case ENOENT: return "the file or its directory does not exist"
        default: return String(cString: strerror(code))
        }
    }

    /// The words for any error of a file operation: an ``FFmpegError`` that wraps an `errno` as ``words(errno:)``,
    /// any other ``FFmpegError`` as FFmpeg's message with the C function that failed, a Foundation error with a
    /// POSIX cause (`FileManager`'s, whose `NSUnderlyingErrorKey` holds the `errno`) as ``words(errno:)``, anything
    /// else as it describes itself.
    package static func words(for error: any Error) -> String {
        if let error = error as? FFmpegError {
            if let code = error.posixCode { return words(errno: code) }
            return error.description
        }
        let foundation = error as NSError
        let underlying = (foundation.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        for candidate in [foundation, underlying].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return words(errno: Int32(candidate.code))
        }
        return String(describing: error)
    }
}
