import Foundation

/// A long job's progress (0…1, monotonic) and the streams that follow it: the one rule behind every session's
/// `progress` and `progressUpdates` (an export session, a packager).
///
/// It is plain data kept in its owner's locked state, so a value, the owner's status and the streams change together
/// under one lock. Each stream keeps only the newest value when its reader is slow (`bufferingNewest(1)`), starts
/// with the current value, and finishes when the run ends; a completed run sends 1.0 last.
package struct ProgressBroadcast: Sendable {
    /// The newest value published, 0…1; 1.0 only after ``finish(completed:)`` with `completed`.
    package private(set) var value: Double = 0
    /// True once the run has ended (``finish(completed:)``): new streams finish at once and values are ignored.
    package private(set) var isFinished = false
    private var continuations: [UUID: AsyncStream<Double>.Continuation] = [:]

    /// A broadcast at 0 whose run has not ended.
    package init() {}

    /// A new stream that starts with ``value``, follows every later value and finishes when the run ends (at once
    /// when it already has).
    package mutating func makeStream() -> AsyncStream<Double> {
        let (stream, continuation) = AsyncStream<Double>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuation.yield(value)
        if isFinished {
            continuation.finish()
        } else {
            continuations[UUID()] = continuation
        }
        return stream
    }

    /// Sends `newValue` to every stream when it is above ``value`` and the run has not ended (progress never goes
    /// back).
    /// - Returns: whether it was sent.
    @discardableResult
    package mutating func publish(_ newValue: Double) -> Bool {
        guard newValue > value, !isFinished else { return false }
        value = newValue
        for continuation in continuations.values { continuation.yield(newValue) }
        return true
    }

    /// Ends the run: a completed one goes to 1.0 and sends it; every stream then finishes and is forgotten.
    package mutating func finish(completed: Bool) {
        isFinished = true
        if completed { value = 1 }
        for continuation in continuations.values {
            if completed { continuation.yield(1) }
            continuation.finish()
        }
        continuations = [:]
    }

    /// Starts a run at 0: the first, or another after one that ended without completing (a job that may be tried
    /// again); streams made from now on follow it.
    package mutating func restart() {
        isFinished = false
        value = 0
    }
}
