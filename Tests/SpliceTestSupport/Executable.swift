import Foundation

/// Command-line tools found as a shell finds them: by name, in the directories of `PATH`.
package enum Executable {
    /// The full path of the first executable file named `name` in `PATH`'s directories, then in `extraDirectories`.
    /// - Returns: nil when no directory holds one (a test then fails saying so, or prints one line that it skipped).
    package static func find(_ name: String, extraDirectories: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + extraDirectories where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
