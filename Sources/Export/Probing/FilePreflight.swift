import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File-system checks made before libavformat sees a path, so the common failures get exact errors and nothing can
/// block: FFmpeg would block forever opening a FIFO with no writer, and would read a character device such as
/// `/dev/zero` without end.
enum FilePreflight {
    /// Opens `path` read-only and non-blocking (so a FIFO returns at once), `fstat`s it and closes it again.
    ///
    /// - Throws: ``AssetLoadingError`` `.fileNotFound`, `.permissionDenied`, `.isADirectory`, `.notARegularFile`,
    ///   `.emptyFile` or `.readFailed`.
    static func check(path: String, url: URL) throws {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw error(errno: errno, url: url) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw error(errno: errno, url: url) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw AssetLoadingError.isADirectory(url)
        case S_IFIFO: throw AssetLoadingError.notARegularFile(url, kind: "FIFO")
        case S_IFSOCK: throw AssetLoadingError.notARegularFile(url, kind: "socket")
        case S_IFCHR: throw AssetLoadingError.notARegularFile(url, kind: "character device")
        case S_IFBLK: throw AssetLoadingError.notARegularFile(url, kind: "block device")
        default: throw AssetLoadingError.notARegularFile(url, kind: "special file")
        }
        if status.st_size == 0 { throw AssetLoadingError.emptyFile(url) }
    }

    private static func error(errno code: Int32, url: URL) -> AssetLoadingError {
        switch code {
        case ENOENT, ENOTDIR: return .fileNotFound(url)
        case EACCES, EPERM: return .permissionDenied(url)
        case EISDIR: return .isADirectory(url)
        default: return .readFailed(url, reason: String(cString: strerror(code)))
        }
    }
}
