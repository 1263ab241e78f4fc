import Foundation
import Testing

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

    /// ``find(_:extraDirectories:)`` for a tool a test reads its results back with: when it is absent, the current
    /// test is recorded as skipped for lack of it (``SkippedTests``: one line at the end of the run), never silently.
    /// - Returns: the tool's full path, or nil (recorded) when `PATH` holds none.
    package static func required(_ name: String) -> String? {
        let path = find(name)
        if path == nil { SkippedTests.record(Test.current?.name ?? "a test", needs: .commandLineTool(name)) }
        return path
    }
}
