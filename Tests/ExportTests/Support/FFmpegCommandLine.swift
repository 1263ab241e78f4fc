import Foundation

/// The `ffmpeg` command-line tool as a second decoder for exported files: `ffmpeg -v error -i FILE -f null -` prints
/// nothing for a stream that decodes cleanly. Installed by `scripts/setup` (scripts/packages/smart-render.list).
enum FFmpegCommandLine {
    /// The tool's path, or nil when it is not installed (then ONE line says the check was skipped).
    static let path: String? = {
        let found = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if found == nil {
            print("SKIPPED the `ffmpeg -v error` decode checks: the ffmpeg command-line tool is not installed "
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-nostdin", "-v", "error", "-i", url.path, "-f", "null", "-"]
        let log = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ffmpeg-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL) } }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { throw Failure.timedOut(url.path) }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return process.terminationStatus == 0 ? output : output + "\n(exit status \(process.terminationStatus))"
    }
}
