import Dispatch

/// The hand-over between the session's thread (the producer) and one consumer of a data output's stream, in one of
/// two policies (AVFoundation's `alwaysDiscardsLateVideoFrames`):
/// - ``Policy/newest``: one slot. A sample arriving while the slot is still full replaces the one in it, which is
///   counted as dropped; the producer never waits.
/// - ``Policy/backPressure(capacity:)``: a queue of at most `capacity` samples. The producer waits for room (it
///   holds a permit of a counting semaphore per queued sample), so nothing is dropped and memory stays bounded; the
///   wait gives up when the session stops or the consumer goes away.
///
/// Shared by the engines that hand samples from a worker thread to an async consumer: Capture's data outputs and
/// AssetIO's reader outputs. A sample handed straight to a waiting consumer never enters the queue. Every sample carries the number of samples
/// dropped before it (its own arrival included when it displaced one), so a consumer can account for every sample.
package final class SampleQueue<Element: Sendable>: Sendable {
    package enum Policy: Sendable, Hashable {
        case newest
        case backPressure(capacity: Int)
    }

    private struct State {
        var queue: [Element] = []
        var waiter: CheckedContinuation<Element?, Never>?
        var isFinished = false
        var droppedCount = 0
        var peakQueuedCount = 0
    }

    package let policy: Policy
    private let state = Locked(State())
    private let room: DispatchSemaphore?

    package init(policy: Policy) {
        self.policy = policy
        if case .backPressure(let capacity) = policy {
            // Made at 0 and raised to the capacity: libdispatch traps when a semaphore is freed below its initial
            // value, which a queue still holding samples at the end would be.
            let room = DispatchSemaphore(value: 0)
            for _ in 0..<max(1, capacity) { room.signal() }
            self.room = room
        } else {
            room = nil
        }
    }

    /// Samples dropped so far (always 0 under back-pressure).
    package var droppedCount: Int { state.withLock { $0.droppedCount } }
    /// The most samples ever waiting in the queue at once.
    package var peakQueuedCount: Int { state.withLock { $0.peakQueuedCount } }
    /// True once the stream ended (session stopped, consumer gone).
    package var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Hands `element` on; `stamp` writes the dropped count into it. Under back-pressure waits for room, checking
    /// `stop` every 50 ms. Returns false when the stream has ended (the sample is discarded).
    @discardableResult
    package func deliver(_ element: Element, stop: CancellationFlag, stamp: (inout Element, Int) -> Void) -> Bool {
        if let room {
            while room.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if stop.isCancelled || isFinished { return false }
            }
        }
        let (waiter, delivered): (CheckedContinuation<Element?, Never>?, Element?) = state.withLock { state in
            guard !state.isFinished else { return (nil, nil) }
            var element = element
            if let waiter = state.waiter {
                state.waiter = nil
                stamp(&element, state.droppedCount)
                return (waiter, element)
            }
            if case .newest = policy, !state.queue.isEmpty {
                state.queue.removeAll()
                state.droppedCount += 1
            }
            stamp(&element, state.droppedCount)
            state.queue.append(element)
            state.peakQueuedCount = max(state.peakQueuedCount, state.queue.count)
            return (nil, element)
        }
        guard let delivered else {
            room?.signal()
            return false
        }
        waiter?.resume(returning: delivered)
        return true
    }

    /// The next sample, waiting for one; nil once the stream has ended and its queue is empty, or when the calling
    /// task is cancelled.
    package func next() async -> Element? {
        let element: Element? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let ready: Element?? = state.withLock { state in
                    if !state.queue.isEmpty { return .some(state.queue.removeFirst()) }
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<Element?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume(returning: nil)
        }
        if element != nil { room?.signal() }
        return element
    }

    /// Ends the stream: a waiting consumer gets nil, queued samples can still be read, the producer stops waiting.
    package func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            state.isFinished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
