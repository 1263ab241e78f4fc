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
}
