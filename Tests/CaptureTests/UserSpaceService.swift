import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A server a test starts in user space (PulseAudio, Xvfb) and stops by its PID.
final class UserSpaceService {
    let name: String
    let process: Process
    let log: URL

    /// Starts `executable` with `arguments` and `environment` added, and waits (up to `timeout` s) for `ready`.
    /// - Throws: ``Unavailable`` naming why (not installed, exited, never ready), for the one skip line.
    init(name: String, executable: String, arguments: [String], environment: [String: String] = [:],
         log: URL, timeout: Double = 10, ready: () -> Bool) throws {
        self.name = name
        self.log = log
        guard let path = UserSpaceService.find(executable) else {
            throw Unavailable(reason: "\(executable) is not installed")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while !ready() {
            guard process.isRunning else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw Unavailable(reason: "\(executable) exited with status \(process.terminationStatus): \(text.suffix(300))")
            }
            guard Date() < deadline else {
                stop()
                throw Unavailable(reason: "\(executable) was not ready after \(Int(timeout)) s")
            }
            usleep(50_000)
        }
    }

    /// Stops the server by its PID: SIGTERM, then SIGKILL after 3 s.
    func stop() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        var deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return }
        kill(pid, SIGKILL)
        // Bounded: a child that already exited on its own may never be reported as ended here.
        deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { usleep(20_000) }
    }

    /// Why a service could not run here.
    struct Unavailable: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// Prints the one visible line that says a suite was skipped, why, and how to enable it.
    static func reportSkip(_ suite: String, _ error: Error) {
        print("⚠︎ CaptureTests: \(suite) SKIPPED: \(error). Install the services with ./scripts/setup "
              + "(scripts/packages/capture.list); CI has them, so there this suite runs.")
    }

    static func find(_ executable: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
