import Foundation
import SpliceFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// A hidden folder for an operation's intermediate files, beside its output, that does not outlive its process.
///
/// The folder is `PREFIX-UUID` in the given place, held with an exclusive `flock(2)` on the folder itself for as
/// long as this object lives. The kernel releases that lock when the process ends, however it ends — `kill -9`, a
/// crash, a power-off of a remote NFS client included — so a folder whose lock nobody holds belongs to no running
/// process. ``init(in:prefix:)`` first removes every `PREFIX-*` folder in the place whose lock it can take: what a
/// killed process left is removed by the next operation of the same kind into the same folder, and a folder of a
/// process still at work (on this machine or another one sharing the file system) is never touched. A lock, not a
/// process id, decides: ids are reused and mean nothing across machines.
///
/// Removed, with its contents, by ``remove()`` or `deinit`. Confined to the operation that made it. The loudness
/// export's measuring pass (`.splice-loudness`), smart rendering's pieces (`.splice-smart`), concurrent segments'
/// parts (`.splice-segments`) and an adaptive-bitrate package being built (`.splice-package`) each use one.
package final class WorkFolder {
    /// The folder.
    package let url: URL
    /// The descriptor of the folder holding its lock; -1 once removed.
    private var descriptor: Int32

    /// Makes `PREFIX-UUID` in `place` and locks it, after removing the `PREFIX-*` folders no process holds.
    /// - Parameters:
    ///   - place: the folder to make it in (usually the output's, so large intermediate files stay on the file
    ///     system the caller chose for the output).
    ///   - prefix: the name's start, e.g. `.splice-loudness`; one kind of work folder per prefix.
    /// - Throws: ``ExportError/outputNotWritable(_:reason:)`` naming `place` when the folder cannot be made.
    package init(in place: URL, prefix: String) throws {
        Self.removeAbandoned(in: place, prefix: prefix)
        // A sweeper of another process can take the lock of a folder made a moment ago, before this process locks
        // it, and remove it: then try a new name.
        for _ in 0..<8 {
            let url = place.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
            guard mkdir(url.path, 0o755) == 0 else {
                throw ExportError.outputNotWritable(place, reason: "the work folder \(url.lastPathComponent) cannot be made: \(FailureReason.words(errno: errno))")
            }
            let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            var status = stat()
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &status) == 0, status.st_nlink > 0 {
                self.url = url
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
        throw ExportError.outputNotWritable(place, reason: "no work folder \(prefix)-… could be kept there: others removed each one")
    }

    deinit { remove() }

    /// Removes the folder and its contents, then releases the lock. Idempotent.
    package func remove() {
        guard descriptor >= 0 else { return }
        try? FileManager.default.removeItem(at: url)
        close(descriptor)
        descriptor = -1
    }

    /// Releases the lock and forgets the folder without removing it: for a folder renamed into place as a finished
    /// output (its new name no longer has the prefix, so no sweep looks at it). Idempotent.
    package func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// Removes every `prefix-*` folder in `place` whose lock no process holds (what processes that ended without
    /// cleaning up left behind). Folders still held are left alone; errors are ignored (the sweep is a courtesy).
    package static func removeAbandoned(in place: URL, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: place.path) else { return }
        for name in names where name.hasPrefix(prefix + "-") {
            let folder = place.appendingPathComponent(name, isDirectory: true)
            let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }  // not a folder, or gone already
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(at: folder) }
            close(descriptor)
        }
    }
}
