import Foundation

/// Linux file attributes set with `chattr(1)`, for tests that need a directory even root cannot change.
package enum FileFlags {
    /// Runs `/usr/bin/chattr <flag> <url>` (e.g. `+i` to make a directory immutable, `-i` to undo it), its output
    /// discarded.
    /// - Returns: true when the tool ran and exited with status 0 (needs root and a file system with the flag,
    ///   such as ext4).
    package static func chattr(_ flag: String, _ url: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, url.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
