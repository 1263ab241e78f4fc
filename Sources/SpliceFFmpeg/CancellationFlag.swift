import Synchronization

/// A thread-safe "stop now" flag shared between the code that owns an FFmpeg job and the job itself.
///
/// FFmpeg polls it through its interrupt callback (`AVIOInterruptCB`, see ``InputFile``) during blocking I/O, so a
/// cancelled open or read returns `AVERROR_EXIT` promptly instead of finishing the operation. The flag only goes one
/// way: once cancelled it stays cancelled. It is `Sendable` (backed by the Synchronization module's `Atomic<Bool>`),
/// so a task's cancellation handler or `cancelExport()` may set it from any thread while a worker thread reads it.
package final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// A flag that is not cancelled.
    package init() {}

    /// Marks the flag cancelled; every later ``isCancelled`` read (on any thread) returns true. Idempotent.
    package func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// True once ``cancel()`` has been called.
    package var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}

extension FFmpegError {
    /// The cancellation rule, the same in every engine: work was cancelled when FFmpeg returned `AVERROR_EXIT` (its
    /// interrupt callback saw a ``CancellationFlag`` set, or the blocking call was abandoned), when the error is
    /// already a `CancellationError`, or when any error arrives while `cancelled` is true (a failure caused by
    /// stopping half-way, e.g. a truncated write). Callers throw `CancellationError` then, never a failure.
    package static func isCancellation(_ error: any Error, cancelled: Bool = false) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? FFmpegError, error == .exit { return true }
        return cancelled
    }
}
