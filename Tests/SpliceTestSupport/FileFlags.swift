import Foundation

/// Linux file attributes set with `chattr(1)`, for tests that need a directory even root cannot change.
package enum FileFlags {
    /// Runs `chattr <flag> <url>` (found on `PATH`; e.g. `+i` to make a directory immutable, `-i` to undo it), its
    /// output discarded.
    /// - Returns: true when the tool ran and exited with status 0 within 10 s (needs root and a file system with the flag,
    ///   such as ext4); false when it failed or is not on `PATH` (then one line says so).
    package static func chattr(_ flag: String, _ url: URL) -> Bool {
        guard let chattrPath, let process = try? ChildProcess(executable: chattrPath, arguments: [flag, url.path]) else {
            return false
        }
        guard process.waitBlocking(seconds: 10) else {
            process.stop()
            return false
        }
        return process.exitCode == 0
    }

    /// `chattr` on `PATH`; when it is absent, one line says that the tests needing it cannot make a directory immutable.
    private static let chattrPath: String? = {
        let found = Executable.find("chattr")
        if found == nil {
            print("SKIPPED immutable-directory checks: chattr (e2fsprogs) is not on PATH")
        }
        return found
    }()
}
