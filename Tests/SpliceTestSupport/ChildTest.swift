import Foundation
import SpliceFFmpeg

/// Runs one test of this test binary again in a child process, alone.
///
/// Used where a test needs the whole process to itself: process-wide measurements (RSS, open descriptors, what
/// reaches stderr) that other tests running in parallel would disturb, and process-wide settings
/// (`RLIMIT_FSIZE`) that would break them. The child is this executable with `--testing-library swift-testing
/// --filter <test>` and `SPLICE_RELIABILITY_CHILD=<role>`; tests that only run as a child are enabled by
/// ``ChildTest/is(_:)``. A child reports figures on stdout as `SPLICE-REPORT key=value` lines.
public enum ChildTest {
    public static let variable = "SPLICE_RELIABILITY_CHILD"

    /// True when this process is a child started for `role`.
    public static func `is`(_ role: String) -> Bool { ProcessInfo.processInfo.environment[variable] == role }

    /// Prints one `SPLICE-REPORT key=value` line for the parent (stdout, flushed).
    public static func report(_ key: String, _ value: String) {
        let line = "SPLICE-REPORT \(key)=\(value)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
    }

    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var timedOut: Bool
        /// The `SPLICE-REPORT` lines, by key.
        public var reports: [String: String] {
            var values: [String: String] = [:]
            for line in output.split(separator: "\n") {
                guard let range = line.range(of: "SPLICE-REPORT ") else { continue }
                let pair = line[range.upperBound...]
                guard let equals = pair.firstIndex(of: "=") else { continue }
                values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            return values
        }
    }

    /// Runs the test matching `filter` (a Swift Testing `--filter` pattern such as `"Suite/test"`) in a child
    /// process with `SPLICE_RELIABILITY_CHILD=role`, waiting at most `timeout` seconds (then the child is killed).
    public static func run(filter: String, role: String, environment: [String: String] = [:], timeout: Double) throws -> Result {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var childEnvironment = environment
        childEnvironment[variable] = role
        // Output goes to a file, not a pipe: nothing can block the child, and no reader thread is needed.
        let log = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("splice-child-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try ChildProcess(
            executable: executable, arguments: ["--testing-library", "swift-testing", "--filter", filter],
            environment: childEnvironment, standardOutput: log, standardError: log)
        let timedOut = !process.waitBlocking(seconds: timeout)
        if timedOut { process.stop() }
        let output = TextFile.text(of: log)
        return Result(status: process.exitCode ?? process.terminationSignal ?? -1, output: output, timedOut: timedOut)
    }
}
