import Foundation
import SpliceTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A server a test starts in user space (PulseAudio, Xvfb) and stops by its PID.
final class UserSpaceService {
    let name: String
    let process: ChildProcess
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
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = try ChildProcess(executable: path, arguments: arguments, environment: environment,
                                   standardOutput: log, standardError: log)
        let deadline = Date().addingTimeInterval(timeout)
        while !ready() {
            guard process.isRunning else {
                let text = TextFile.text(of: log)
                let status = process.exitCode.map { "status \($0)" } ?? "signal \(process.terminationSignal ?? 0)"
                throw Unavailable(reason: "\(executable) exited with \(status): \(text.suffix(300))")
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
        process.send(SIGTERM)
        if !process.waitBlocking(seconds: 3) { process.stop() }
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

    static func find(_ executable: String) -> String? { Executable.find(executable) }
}
