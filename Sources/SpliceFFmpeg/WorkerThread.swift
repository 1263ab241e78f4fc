import Foundation

/// Dedicated threads for blocking FFmpeg work, which never runs on Swift's cooperative pool.
///
/// Every worker is named from inside its own thread (Linux applies a name only when the thread sets it itself, so a
/// `Thread.name` set before `start()` never reaches `ps`, `top` or a debugger) and gets an 8 MiB stack.
package enum WorkerThread {
    /// Starts `body` on a new thread called `name` (at most 15 bytes reach the system) and returns at once.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Runs `body` on a new thread called `name` and returns its result to the awaiting task.
    /// - Throws: whatever `body` throws.
    package static func run<Value: Sendable>(name: String, _ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            start(name: name) { continuation.resume(with: Result { try body() }) }
        }
    }
}
