import Foundation
import SpliceFFmpeg
#if canImport(Glibc)
import Glibc
#endif

// glibc (2.29 and 2.34 on) declares these only under _GNU_SOURCE, so Swift's Glibc module does not see them.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func addChangeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                _ path: UnsafePointer<CChar>) -> Int32
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32

/// A child process for tests, started with `posix_spawn` and reaped with `waitpid` by this type alone.
///
/// Foundation's `Process` learns that a child ended when a socket the child holds reaches end-of-file, so a child
/// that exits while another child (started at the same moment by a parallel test) still holds that socket is never
/// seen to end: `waitUntilExit()` then blocks for good and `isRunning` stays true. That hung a CI run. Here the end
/// comes from `waitpid`, the child gets no descriptor but 0, 1 and 2 (`closefrom(3)`), and starts with an empty
/// signal mask and default signal actions whatever thread spawned it.
package final class ChildProcess: @unchecked Sendable {
    /// The child's process ID.
    package let pid: pid_t
    private let waitStatus = Locked<Int32?>(nil)

    /// Why a child could not start.
    package struct SpawnError: Error, CustomStringConvertible {
        package var executable: String
        package var code: Int32
        package var description: String { "\(executable) could not start: \(String(cString: strerror(code)))" }
    }

    /// Starts `executable` (a path) with `arguments`.
    /// - Parameters:
    ///   - environment: variables added to (or replacing those of) this process's environment.
    ///   - directory: the child's working directory (nil: this process's).
    ///   - standardOutput: a file the child's standard output is appended to (created when missing); nil discards it.
    ///   - standardError: the same for standard error; the same URL as `standardOutput` shares one file.
    /// - Throws: ``SpawnError`` when `posix_spawn` fails (e.g. no such executable).
    package init(executable: String, arguments: [String], environment: [String: String] = [:],
                 directory: URL? = nil, standardOutput: URL? = nil, standardError: URL? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let flags = O_WRONLY | O_CREAT | O_APPEND
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput?.path ?? "/dev/null", flags, 0o644)
        if let standardError, standardError == standardOutput {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, standardError?.path ?? "/dev/null", flags, 0o644)
        }
        if let directory { _ = addChangeDirectory(&actions, directory.path) }
        _ = addCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnError(executable: executable, code: code) }
        pid = child
    }

    /// True until `waitpid` reports the child's end.
    package var isRunning: Bool {
        waitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status == nil
        }
    }

    /// The exit code when the child exited by itself, nil while it runs or when a signal ended it.
    package var exitCode: Int32? {
        guard !isRunning, let raw = waitStatus.withLock({ $0 }), raw & 0x7f == 0 else { return nil }
        return (raw >> 8) & 0xff
    }

    /// The signal that ended the child, nil while it runs or when it exited by itself.
    package var terminationSignal: Int32? {
        guard !isRunning, let raw = waitStatus.withLock({ $0 }), raw & 0x7f != 0 else { return nil }
        return raw & 0x7f
    }

    /// Sends `signal` (e.g. `SIGINT`, `SIGTERM`) to the child while it runs.
    package func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `seconds` for the end, polling without blocking a thread; true when it ended.
    package func wait(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        return !isRunning
    }

    /// Waits up to `seconds` for the end, blocking this thread; true when it ended.
    package func waitBlocking(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { usleep(20_000) }
        return !isRunning
    }

    /// Stops the child by its PID with SIGKILL and reaps it (nothing when it already ended).
    package func stop() {
        guard isRunning else { return }
        kill(pid, SIGKILL)
        _ = waitBlocking(seconds: 10)
    }
}
