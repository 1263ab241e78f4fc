import Foundation
import SpliceFFmpeg

/// The file an export writes before it is complete, in the target's directory (so the finished file is moved into
/// place without copying).
///
/// Where the file system supports it (Linux ext4, XFS, Btrfs, tmpfs…), the file is unnamed: `open(2)` with
/// `O_TMPFILE` on the directory, written by FFmpeg through `/proc/self/fd/N`, and given its name by `linkat(2)` only
/// when the export succeeds. It never has a name before then, so nothing can be left behind — not by a failure, a
/// cancellation, a crash, nor by a directory made read-only mid-export (where removing a named file would fail).
/// Elsewhere (no `O_TMPFILE`, no `/proc`) it is a hidden named file `.NAME.splice-UUID.partial` beside the target,
/// removed on failure — as AVFoundation's export writes beside its target.
///
/// A fragmented movie is the exception (``init(inPlaceOf:replacing:)``): it is written under the target's own name
/// from the start, so that a killed process leaves a file that plays up to its last complete fragment where the
/// caller expects its output; a failure or cancellation removes it.
///
/// Confined to the export worker; ``discard()`` runs from `deinit` if neither ``commit(to:replacing:)`` nor
/// ``discard()`` was called. Package access: AssetIO's writer makes its files appear by the same rule.
package final class TemporaryOutputFile {
    /// The path FFmpeg opens for writing: `/proc/self/fd/N` for an unnamed file, the `.partial` path otherwise.
    package let path: String
    /// The `O_TMPFILE` descriptor, kept open until the file is linked or dropped; nil for a named file.
    private var descriptor: Int32?
    /// True once the file was committed or discarded.
    private var settled = false
    /// True for a file written under the target's name from the start (``init(inPlaceOf:replacing:)``).
    private let inPlace: Bool

    /// `O_TMPFILE` as the kernel defines it (`__O_TMPFILE | O_DIRECTORY`; `__O_TMPFILE` is 020000000 on every
    /// Linux architecture Swift runs on). Glibc's macro is compound, so Swift cannot import it.
    private static let openTemporaryFile = Int32(0o20000000) | O_DIRECTORY

    /// True when this object holds an unnamed (`O_TMPFILE`) file.
    package var isUnnamed: Bool { descriptor != nil }

    /// Creates the temporary file for `target`: unnamed when the directory's file system allows it, otherwise
    /// a named `.partial` path (created by FFmpeg when it opens ``path``).
    /// - Parameter target: the `file:` URL the export will produce; its directory must exist.
    package init(for target: URL) {
        inPlace = false
        let directory = target.deletingLastPathComponent().path
        let descriptor = open(directory, Self.openTemporaryFile | O_WRONLY | O_CLOEXEC, 0o666)
        if descriptor >= 0, access("/proc/self/fd/\(descriptor)", F_OK) == 0 {
            self.descriptor = descriptor
            path = "/proc/self/fd/\(descriptor)"
        } else {
            if descriptor >= 0 { close(descriptor) }
            self.descriptor = nil
            path = target.deletingLastPathComponent()
                .appendingPathComponent(".\(target.lastPathComponent).splice-\(UUID().uuidString).partial").path
        }
    }

    /// Creates `target` itself, empty, for a file that must be readable under its own name while it is written (a
    /// fragmented movie): created exclusively (`open(2)` with `O_CREAT | O_EXCL`), so a file that appeared since the
    /// export was planned is neither overwritten nor removed; with `replacing`, an existing file is removed first.
    /// ``commit(to:replacing:)`` then only keeps it; ``discard()`` removes it.
    /// - Throws: ``ExportError/outputFileExists(_:)`` when `target` exists and `replacing` is false;
    ///   ``ExportError/outputNotWritable(_:reason:)`` naming `target` when it cannot be created or replaced.
    package init(inPlaceOf target: URL, replacing: Bool) throws {
        inPlace = true
        descriptor = nil
        path = target.path
        if replacing, unlink(target.path) != 0, errno != ENOENT {
            let code = errno
            settled = true
            throw ExportError.outputNotWritable(target, reason: "removing the file it replaces: \(FailureReason.words(errno: code))")
        }
        let created = open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard created >= 0 else {
            let code = errno
            settled = true
            throw code == EEXIST ? ExportError.outputFileExists(target)
                : ExportError.outputNotWritable(target, reason: FailureReason.words(errno: code))
        }
        close(created)
    }

    /// The file an output is written into: `target` itself from the start when `inPlace` (a fragmented movie,
    /// ``init(inPlaceOf:replacing:)``, which throws its errors), else a temporary file named only on success
    /// (``init(for:)``).
    package static func make(for target: URL, inPlace: Bool, replacing: Bool) throws -> TemporaryOutputFile {
        inPlace ? try TemporaryOutputFile(inPlaceOf: target, replacing: replacing) : TemporaryOutputFile(for: target)
    }

    deinit { discard() }

    /// True when `url` names this temporary file or, for an unnamed file, the `/proc/self/fd` folder FFmpeg saw as
    /// its directory: errors about it are reported against the caller's target instead.
    package func isTemporary(_ url: URL) -> Bool {
        url.path == path || (isUnnamed && url.path == "/proc/self/fd")
    }

    /// Drops the file: closes an unnamed file (the kernel frees it) or removes the named one (an in-place file
    /// included). Idempotent.
    package func discard() {
        guard !settled else { return }
        settled = true
        if let descriptor {
            close(descriptor)
        } else {
            unlink(path)
        }
    }

    /// Gives the finished file the name `target`.
    ///
    /// Without `replacing`: `linkat(2)` (`link(2)` for a named file, then `unlink(2)`), which fails with `EEXIST`
    /// instead of clobbering a file that appeared while the export ran (a file system without hard links falls back
    /// to a rename after re-checking). With `replacing`: an atomic `rename(2)` over the target (an unnamed file is
    /// first linked under a hidden name, removed again if the rename fails). The temporary file is gone afterwards,
    /// whether or not this succeeds. A file written in place (``init(inPlaceOf:replacing:)``) already has its name:
    /// it is kept as it is.
    /// - Throws: ``ExportError/outputFileExists(_:)``; ``ExportError/writeFailed(_:reason:)`` naming `target` when
    ///   the directory refuses the new name (read-only, no permission).
    package func commit(to target: URL, replacing: Bool) throws {
        if inPlace {
            settled = true
            return
        }
        defer { discard() }
        func failure(_ code: Int32) -> ExportError {
            ExportError.writeFailed(target, reason: "moving the finished file into place: \(FailureReason.words(errno: code))")
        }
        if isUnnamed {
            if !replacing {
                guard linkat(AT_FDCWD, path, AT_FDCWD, target.path, AT_SYMLINK_FOLLOW) == 0 else {
                    let code = errno
                    throw code == EEXIST ? ExportError.outputFileExists(target) : failure(code)
                }
                return
            }
            let hidden = target.deletingLastPathComponent()
                .appendingPathComponent(".\(target.lastPathComponent).splice-\(UUID().uuidString).partial").path
            guard linkat(AT_FDCWD, path, AT_FDCWD, hidden, AT_SYMLINK_FOLLOW) == 0 else { throw failure(errno) }
            guard rename(hidden, target.path) == 0 else {
                let code = errno
                unlink(hidden)
                throw failure(code)
            }
            return
        }
        if replacing {
            guard rename(path, target.path) == 0 else { throw failure(errno) }
            return
        }
        if link(path, target.path) != 0 {
            let code = errno
            if code == EEXIST { throw ExportError.outputFileExists(target) }
            // File systems without hard links: fall back to a rename after re-checking.
            if FileManager.default.fileExists(atPath: target.path) { throw ExportError.outputFileExists(target) }
            guard rename(path, target.path) == 0 else { throw failure(errno) }
        }
    }
}
