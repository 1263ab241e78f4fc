#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a POSIX mutex (glibc's plain futex lock), for state shared between FFmpeg's threads, export
/// workers and callers.
///
/// Used instead of `Synchronization.Mutex`, which on Linux (Swift 6.3) is built on priority-inheritance futexes: under
/// heavy contention from FFmpeg's log callback, a test run was caught with the lock word naming as its owner a thread
/// that was itself waiting for the lock, and every other thread blocked behind it. A normal pthread mutex has no such
/// hand-over. The lock is not recursive: `body` must not take the same lock again.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    /// - Throws: what `body` throws (the lock is released either way).
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
