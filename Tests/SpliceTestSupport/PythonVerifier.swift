import Foundation
import Testing

/// The Python verifiers (OpenTimelineIO, m3u8, pyloudnorm, qrcode): second readers of what Splice writes, run from
/// the repository's own virtual environment, `.venv` at the package root, which `scripts/setup` fills from
/// `scripts/python/requirements.txt` (pinned versions, so every machine checks with the same code).
package enum PythonVerifier {
    /// `.venv/bin/python` at the package root.
    package static let interpreter: URL = Fixture.packageRoot.appendingPathComponent(".venv/bin/python")

    /// True when ``interpreter`` exists. When it does not, the test asking (`.enabled(if:)`) is recorded and one
    /// line naming it is printed when the test process ends (``SkippedTests``).
    package static var isAvailable: Bool {
        let present = FileManager.default.isExecutableFile(atPath: interpreter.path)
        if !present { SkippedTests.record(Test.current?.name ?? "a test", needs: .pythonVerifiers) }
        return present
    }

    /// Why a script failed: its exit status and standard error, or that it did not end in time.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs `script` (Python source, `python -c`) with `arguments` (its `sys.argv[1...]`) and returns what it
    /// printed on standard output.
    /// - Throws: ``Failure`` with the script's standard error when it exits with a status other than 0 or runs
    ///   longer than `timeout` seconds (it is then killed); ``ChildProcess/SpawnError`` when Python cannot start.
    package static func run(_ script: String, _ arguments: [String] = [], timeout: Double = 120) async throws -> String {
        let scratch = try ScratchDirectory("python")
        defer { scratch.remove() }
        let output = scratch.file("stdout"), errors = scratch.file("stderr")
        let child = try ChildProcess(executable: interpreter.path, arguments: ["-c", script] + arguments,
                                     standardOutput: output, standardError: errors)
        guard await child.wait(seconds: timeout) else {
            child.stop()
            throw Failure(description: "the Python verifier did not end within \(Int(timeout)) s")
        }
        guard child.exitCode == 0 else {
            throw Failure(description: "the Python verifier failed (exit \(child.exitCode.map(String.init) ?? "by a signal")): "
                + TextFile.text(of: errors))
        }
        return TextFile.text(of: output)
    }
}
