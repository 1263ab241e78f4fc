import Foundation
import SpliceFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// The checks of an output path that commands make before any work (docs/cli.md, "Exit codes": exit 1), so a
/// command that cannot write its file says so at once rather than after rendering.
enum OutputLocation {
    /// What to do with a file already at the output path.
    enum Existing {
        /// Replace it (`--overwrite` given).
        case replace
        /// Refuse; `--overwrite` would replace it.
        case refuseUnlessOverwrite
        /// Refuse; the command never replaces a file (`record`).
        case refuseAlways
    }

    /// Refuses `path` when its folder does not exist or is not writable, or when a file is there and `existing`
    /// does not allow replacing it; prints `splice: cannot write PATH: the folder /abs does not exist` (or `… is not
    /// writable`, or `splice: PATH already exists (use --overwrite to replace it)`).
    ///
    /// - Parameters:
    ///   - path: the output as typed.
    ///   - existing: what to do with a file already there.
    /// - Throws: ``CommandExit`` with ``ExitStatus/invalidInput``.
    static func check(_ path: String, existing: Existing) throws(CommandExit) {
        let url = URL(fileURLWithPath: path)
        try checkFolder(url.deletingLastPathComponent(), for: path)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        switch existing {
        case .replace:
            return
        case .refuseUnlessOverwrite:
            Console.error("splice: \(path) already exists (use --overwrite to replace it)")
            throw CommandExit(status: .invalidInput, detail: "\(path) already exists")
        case .refuseAlways:
            Console.error("splice: \(path) already exists (a recording never replaces a file)")
            throw CommandExit(status: .invalidInput, detail: "\(path) already exists")
        }
    }

    /// Refuses `folder` when it does not exist or a file cannot be made in it; prints `splice: cannot write PATH: the
    /// folder /abs does not exist` (or `… is not writable (REASON)`).
    ///
    /// Writability is tried, not guessed from the permission bits (``WritableFolder``): a read-only file system or
    /// a folder such as `/proc` is found here too, where `access(2)` says yes to root.
    /// - Parameters:
    ///   - folder: the folder the command writes into.
    ///   - path: the output as typed, for the message.
    /// - Throws: ``CommandExit`` with ``ExitStatus/invalidInput``.
    static func checkFolder(_ folder: URL, for path: String) throws(CommandExit) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            Console.error("splice: cannot write \(path): the folder \(folder.path) does not exist")
            throw CommandExit(status: .invalidInput, detail: "cannot write \(path): the folder \(folder.path) does not exist")
        }
        if let reason = WritableFolder.creationFailure(in: folder) {
            Console.error("splice: cannot write \(path): the folder \(folder.path) is not writable (\(reason))")
            throw CommandExit(status: .invalidInput, detail: "cannot write \(path): the folder \(folder.path) is not writable")
        }
    }
}
