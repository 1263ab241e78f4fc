import Foundation
import Testing
import SpliceTestSupport

/// The `ffmpeg` command-line tool as a second decoder for exported files: `ffmpeg -v error -i FILE -f null -` prints
/// nothing for a stream that decodes cleanly. Installed by `scripts/setup` (scripts/packages/smart-render.list).
enum FFmpegCommandLine {
    /// The tool's path (found on `PATH`), or nil when it is not there (then ONE line says the check was skipped).
    static let path: String? = {
        let found = Executable.find("ffmpeg")
        if found == nil {
            print("SKIPPED the `ffmpeg -v error` decode checks: the ffmpeg command-line tool is not on PATH "
                + "(run ./scripts/setup, which installs it from scripts/packages/smart-render.list)")
        }
        return found
    }()

    enum Failure: Error, CustomStringConvertible {
        case timedOut(String)
        var description: String {
            switch self { case .timedOut(let file): return "ffmpeg did not finish decoding \(file) within the deadline" }
        }
    }

    /// What `ffmpeg -v error` prints decoding every stream of `url` (empty for a clean decode), or nil when the tool
    /// is not installed. The child is killed by PID if it outlives `timeout` seconds (then this throws).
    static func decodingErrors(of url: URL, timeout: Double = 60) async throws -> String? {
        guard let path else { return nil }
        let log = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ffmpeg-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try ChildProcess(
            executable: path, arguments: ["-nostdin", "-v", "error", "-i", url.path, "-f", "null", "-"],
            standardOutput: log, standardError: log)
        defer { child.stop() }
        guard await child.wait(seconds: timeout) else { throw Failure.timedOut(url.path) }
        let output = TextFile.text(of: log)
        if child.exitCode == 0 { return output }
        return output + "\n(exit status \(child.exitCode.map(String.init) ?? "signal \(child.terminationSignal ?? 0)"))"
    }

    /// Expects `ffmpeg -v error` to decode every stream of `url` printing nothing (``decodingErrors(of:timeout:)``
    /// empty); checks nothing when the tool is not installed (``path`` printed the one skip line).
    /// - Throws: ``Failure/timedOut(_:)`` when the decode outlives `timeout` seconds; the child's spawn errors.
    static func expectCleanDecode(
        of url: URL, timeout: Double = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        if let errors = try await decodingErrors(of: url, timeout: timeout) {
            #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
        }
    }
}
