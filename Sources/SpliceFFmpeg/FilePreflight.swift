import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File-system checks made before libavformat sees a path, so the common failures get exact errors and nothing can
/// block: FFmpeg would block forever opening a FIFO with no writer, and would read a character device such as
/// `/dev/zero` without end.
package enum FilePreflight {
    /// Opens `path` read-only and non-blocking (so a FIFO returns at once), `fstat`s it and closes it again.
    ///
    /// - Throws: ``InputFileError`` `.fileNotFound`, `.permissionDenied`, `.isADirectory`, `.notARegularFile`,
    ///   `.emptyFile` or `.readFailed`.
    package static func check(path: String) throws(InputFileError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw error(errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw error(errno: errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .isADirectory
        case S_IFIFO: throw .notARegularFile(kind: "FIFO")
        case S_IFSOCK: throw .notARegularFile(kind: "socket")
        case S_IFCHR: throw .notARegularFile(kind: "character device")
        case S_IFBLK: throw .notARegularFile(kind: "block device")
        default: throw .notARegularFile(kind: "special file")
        }
        if status.st_size == 0 { throw .emptyFile }
    }

    private static func error(errno code: Int32) -> InputFileError {
        switch code {
        case ENOENT, ENOTDIR: return .fileNotFound
        case EACCES, EPERM: return .permissionDenied
        case EISDIR: return .isADirectory
        default: return .readFailed(String(cString: strerror(code)))
        }
    }
}
