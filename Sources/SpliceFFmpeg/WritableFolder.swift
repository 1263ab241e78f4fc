import Composition
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a file can be made in a folder, tried rather than guessed from the permission bits: `access(2)` says yes
/// to root on a read-only file system, in `/proc`, or on an NFS export that maps root to nobody, and the write then
/// fails after the work is done.
package enum WritableFolder {
    /// Creates a hidden file (`.splice-write-check-UUID`, `O_CREAT | O_EXCL`) in `folder` and removes it at once.
    /// - Parameter folder: an existing folder.
    /// - Returns: nil when the file could be made; otherwise `open(2)`'s `errno` (words: ``FailureReason/words(errno:)``).
    package static func creationError(in folder: URL) -> Int32? {
        let probe = folder.appendingPathComponent(".splice-write-check-\(UUID().uuidString)").path
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errno }
        close(descriptor)
        unlink(probe)
        return nil
    }

    /// Why no file can be made in `folder` (``creationError(in:)``), in words: ``FailureReason/words(errno:)``, except
    /// that `ENOENT` for a folder that exists means its file system makes no new files, as procfs and sysfs do;
    /// the words then name that file system.
    /// - Parameter folder: an existing folder.
    /// - Returns: nil when a file could be made.
    package static func creationFailure(in folder: URL) -> String? {
        guard let code = creationError(in: folder) else { return nil }
        guard code == ENOENT else { return FailureReason.words(errno: code) }
        return "its file system (\(fileSystemName(of: folder))) does not let files be created"
    }

    /// The type of the file system `folder` is on (`proc`, `sysfs`, …): that of the longest mount point above it in
    /// `/proc/self/mounts`, or "unknown".
    private static func fileSystemName(of folder: URL) -> String {
        let path = folder.resolvingSymlinksInPath().path
        guard let mounts = try? FileContents.utf8Text(of: URL(fileURLWithPath: "/proc/self/mounts")) else { return "unknown" }
        var best: (point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1])
            let above = point == "/" || path == point || path.hasPrefix(point + "/")
            if above, point.count >= (best?.point.count ?? 0) { best = (point, String(fields[2])) }
        }
        return best?.type ?? "unknown"
    }
}
