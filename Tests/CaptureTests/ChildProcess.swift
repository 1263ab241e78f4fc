import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child started with `posix_spawn` and reaped with `waitpid` by this type alone, so its end and status are known
/// exactly (used for short-lived clients: paplay, `splice record`).
final class ChildProcess {
    let pid: pid_t
    private(set) var status: Int32?

    /// Starts `path` with `arguments`, the current environment plus `environment`, output appended to `log`.
    init(path: String, arguments: [String], environment: [String: String], log: URL) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, path, &actions, nil, argv, envp)
        guard code == 0 else { throw UserSpaceService.Unavailable(reason: "\(path) could not start: errno \(code)") }
        pid = child
    }

    /// True until `waitpid` reports the child's end.
    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
        return status == nil
    }

    /// The exit code when the child exited normally, nil otherwise or while it runs.
    var exitCode: Int32? {
        guard !isRunning, let status, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }

    /// Waits up to `seconds` for the end; true when it ended.
    func wait(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { try? await Task.sleep(nanoseconds: 50_000_000) }
        return !isRunning
    }

    /// Stops the child by its PID (SIGKILL) and reaps it.
    func stop() {
        guard isRunning else { return }
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        if waitpid(pid, &raw, 0) == pid { status = raw }
    }
}
