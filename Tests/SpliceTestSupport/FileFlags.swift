import Foundation

/// Linux file attributes set with `chattr(1)`, for tests that need a directory even root cannot change.
package enum FileFlags {
    /// Runs `/usr/bin/chattr <flag> <url>` (e.g. `+i` to make a directory immutable, `-i` to undo it), its output
    /// discarded.
    /// - Returns: true when the tool ran and exited with status 0 within 10 s (needs root and a file system with the flag,
    ///   such as ext4).
    package static func chattr(_ flag: String, _ url: URL) -> Bool {
        guard let process = try? ChildProcess(executable: "/usr/bin/chattr", arguments: [flag, url.path]) else {
            return false
        }
        guard process.waitBlocking(seconds: 10) else {
            process.stop()
            return false
        }
        return process.exitCode == 0
    }
}
