import Foundation
import SpliceFFmpeg

/// What a command-line tool printed and how it ended (``Executable/run(_:_:timeout:)``).
package struct ToolRun: Sendable {
    /// Its standard output.
    package var output: String
    /// Its standard error.
    package var errors: String
    /// Its exit status; nil when a signal ended it.
    package var exitCode: Int32?

    /// True when it exited with status 0.
    package var succeeded: Bool { exitCode == 0 }
}

extension Executable {
    /// Why a tool could not be run, or did not end in time, or (``output(of:_:timeout:)``) did not succeed: the
    /// command and what it said.
    package struct RunFailure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs the tool `name` (a path, or a name found on `PATH` by ``find(_:extraDirectories:)``) with `arguments`
    /// to its end, as a ``ChildProcess`` (no standard input), and returns what it printed.
    /// - Parameter timeout: seconds it may run; then it is stopped.
    /// - Throws: ``RunFailure`` when no such tool exists or it did not end within `timeout`.
    package static func run(_ name: String, _ arguments: [String], timeout: Double = 120) async throws -> ToolRun {
        guard let path = name.contains("/") ? name : find(name) else {
            throw RunFailure(description: "\(name) is not on PATH (./scripts/setup installs it)")
        }
        let scratch = try ScratchDirectory("tool-run")
        defer { scratch.remove() }
        let output = scratch.file("stdout"), errors = scratch.file("stderr")
        let child = try ChildProcess(executable: path, arguments: arguments, standardOutput: output, standardError: errors)
        guard await child.wait(seconds: timeout) else {
            child.stop()
            throw RunFailure(description: "\(name) \(arguments.joined(separator: " ")) did not end within \(timeout) s")
        }
        return ToolRun(output: TextFile.text(of: output), errors: TextFile.text(of: errors), exitCode: child.exitCode)
    }

    /// ``run(_:_:timeout:)`` for a tool that must succeed: its standard output.
    /// - Throws: ``RunFailure`` as ``run(_:_:timeout:)``, and naming the command and its standard error when it
    ///   does not exit with status 0.
    package static func output(of name: String, _ arguments: [String], timeout: Double = 120) async throws -> String {
        let run = try await run(name, arguments, timeout: timeout)
        guard run.succeeded else {
            throw RunFailure(description: "\(name) \(arguments.joined(separator: " ")) failed (exit "
                                + "\(run.exitCode.map(String.init) ?? "by a signal")): \(run.errors)")
        }
        return run.output
    }
}
