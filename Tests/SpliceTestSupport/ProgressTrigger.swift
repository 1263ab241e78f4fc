import Foundation
import Splice
#if canImport(Glibc)
import Glibc
#endif

/// Runs `action` the moment an export's progress passes `fraction`, from a dedicated thread polling
/// ``AssetExportSession/progress`` every 2 ms.
///
/// A test that reads `progressUpdates` in a task and cancels from there depends on Swift's concurrency pool (two
/// threads here): beside the whole parallel suite that task can resume seconds late, after the export has finished,
/// and the test then checks nothing. A plain thread is scheduled by the kernel, so the action runs near `fraction`.
/// - Returns: what `action` returned, or nil when the export ended first or `timeout` seconds passed.
package func whenProgress<Value: Sendable>(
    of session: AssetExportSession, passes fraction: Double, timeout: Double = 300,
    _ action: @escaping @Sendable () -> Value
) async -> Value? {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if session.progress > fraction, session.status == .exporting {
                    continuation.resume(returning: action())
                    return
                }
                if [.completed, .failed, .cancelled].contains(session.status) { break }
                usleep(2_000)
            }
            continuation.resume(returning: nil)
        }
        thread.start()
    }
}

/// Runs `action` from a dedicated thread as soon as `condition` holds, polling every 5 ms: for waiting on something
/// outside Swift's concurrency pool (a child process's log, a file), for the reason ``whenProgress(of:passes:timeout:_:)``
/// gives — a task polling beside the whole parallel suite can resume long after the moment has passed.
/// - Returns: what `action` returned, or nil when `timeout` seconds passed first.
package func whenCondition<Value: Sendable>(
    timeout: Double, _ condition: @escaping @Sendable () -> Bool, _ action: @escaping @Sendable () -> Value
) async -> Value? {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition() {
                    continuation.resume(returning: action())
                    return
                }
                usleep(5_000)
            }
            continuation.resume(returning: nil)
        }
        thread.start()
    }
}
