import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Splice
#if canImport(Glibc)
import Glibc
#endif

/// Running the built `splice` executable.
enum SpliceTool {
    /// The result of one run.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    enum Failure: Error, CustomStringConvertible {
        case executableNotFound([String])
        case timedOut([String])

        var description: String {
            switch self {
            case .executableNotFound(let places): return "the splice executable was not found; looked at: \(places.joined(separator: ", "))"
            case .timedOut(let arguments): return "splice \(arguments.joined(separator: " ")) did not finish in time"
            }
        }
    }

    /// The built executable: `$SPLICE_EXECUTABLE`, else `splice` beside the test bundle, else in `.build/debug`.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["SPLICE_EXECUTABLE"] { candidates.append(URL(fileURLWithPath: path)) }
        for argument in CommandLine.arguments where argument.hasSuffix(".xctest") {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().appendingPathComponent("splice"))
        }
        candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("splice"))
        candidates.append(Fixture.packageRoot.appendingPathComponent(".build/debug/splice"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Failure.executableNotFound(candidates.map(\.path))
        }
        return found
    }

    /// Runs `splice arguments…` in `directory`, with `environment` added, and waits for it (at most `timeout` seconds).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    timeout: Double = 120) async throws -> Run {
        let process = try start(arguments, in: directory, environment: environment)
        return try await finish(process, arguments: arguments, timeout: timeout)
    }

    /// A started process with its output captured to files (no pipe can fill up and block it).
    final class Started: Sendable {
        let process: ChildProcess
        let stdoutURL: URL
        let stderrURL: URL

        init(process: ChildProcess, stdoutURL: URL, stderrURL: URL) {
            self.process = process
            self.stdoutURL = stdoutURL
            self.stderrURL = stderrURL
        }

        /// Sends `signal` as soon as `condition` holds (up to `timeout` seconds), through ``whenCondition``: from a
        /// thread of its own, since under a full test run a task can resume minutes after the moment has passed.
        /// True when it was sent, false at the timeout or when the process ended first.
        func send(_ signal: Int32, timeout: Double = 240, when condition: @escaping @Sendable (Started) -> Bool) async -> Bool {
            await whenCondition(timeout: timeout, { !self.process.isRunning || condition(self) }) { () -> Bool in
                guard self.process.isRunning else { return false }
                self.process.send(signal)
                return true
            } ?? false
        }

        /// Sends `signal` `delay` seconds after the process has installed its handler for it (``catches(_:)``): the
        /// command is then past its start and at work.
        func sendOnceCaught(_ signal: Int32, after delay: Double) async -> Bool {
            let handlerSeen = Locked<Date?>(nil)
            return await send(signal) { started in
                guard started.catches(signal) else { return false }
                let seen = handlerSeen.withLock { seen in
                    if seen == nil { seen = Date() }
                    return seen!
                }
                return Date().timeIntervalSince(seen) >= delay
            }
        }

        /// How many of the process's threads are named `name` (`/proc/PID/task/TID/comm`): an export renders on a
        /// thread named `splice.export`, so this says how many exports are at work right now.
        func threads(named name: String) -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")) ?? []
            return tasks.filter {
                (try? TextFile.read(URL(fileURLWithPath: "/proc/\(process.pid)/task/\($0)/comm")))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) == name
            }.count
        }

        /// True once the process has a handler installed for `signal` (`SigCgt` in `/proc/PID/status`).
        func catches(_ signal: Int32) -> Bool {
            guard let status = try? TextFile.read(URL(fileURLWithPath: "/proc/\(process.pid)/status")),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                  let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & (1 << UInt64(signal - 1)) != 0
        }

        /// What the process has written to standard output so far.
        var stdoutSoFar: String { TextFile.text(of: stdoutURL) }
        /// What the process has written to standard error so far.
        var stderrSoFar: String { TextFile.text(of: stderrURL) }
    }

    static func start(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Started {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("splice-run-\(UUID().uuidString)")
        let stdoutURL = base.appendingPathExtension("out"), stderrURL = base.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let process = try ChildProcess(executable: try executable().path, arguments: arguments, environment: environment,
                                       directory: directory,
                                       standardOutput: stdoutURL, standardError: stderrURL)
        return Started(process: process, stdoutURL: stdoutURL, stderrURL: stderrURL)
    }

    static func finish(_ started: Started, arguments: [String], timeout: Double = 120) async throws -> Run {
        let deadline = Date().addingTimeInterval(timeout)
        while started.process.isRunning {
            if Date() > deadline {
                started.process.stop()
                throw Failure.timedOut(arguments)
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        defer {
            try? FileManager.default.removeItem(at: started.stdoutURL)
            try? FileManager.default.removeItem(at: started.stderrURL)
        }
        return Run(
            status: started.process.exitCode ?? started.process.terminationSignal ?? -1,
            stdout: TextFile.text(of: started.stdoutURL),
            stderr: TextFile.text(of: started.stderrURL))
    }
}

/// Small export settings for fast tests: H.264 ultrafast, small audio.
let fastExport = #"{ "settings": { "video": { "encoderPreset": "ultrafast", "rateControl": { "constantQuality": 30 } } } }"#
