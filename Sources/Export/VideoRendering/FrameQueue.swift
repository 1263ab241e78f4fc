import SpliceFFmpeg
import Foundation

/// A bounded first-in-first-out hand-off of ``Frame``s from one producer thread to one consumer thread.
///
/// Ownership moves with the frame: ``put(moving:)`` moves the producer's buffers into a frame struct the queue owns
/// (the producer's frame is left empty, to be refilled), ``take()`` gives that struct to the consumer, who owns it
/// until ``recycle(_:)`` gives it back for reuse. At most `capacity` frames wait; the producer blocks while the queue
/// is full, the consumer while it is empty. A frame is never touched by two threads at once — that invariant, kept
/// by the lock below, is why this channel (and only it) is `@unchecked Sendable`.
final class FrameQueue: @unchecked Sendable {
    /// Thrown to the producer by ``put(moving:)`` once the consumer has closed the queue: stop producing.
    struct Closed: Error {}

    private let capacity: Int
    private let condition = NSCondition()
    private var ready: [Frame] = []
    private var spare: [Frame] = []
    private var end: Result<Void, any Error>?
    private var closed = false

    /// A queue holding at most `capacity` (≥ 1) frames in transit.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Producer: appends `frame`'s content (moved out of it; `frame` is left empty), waiting while the queue is full.
    /// - Throws: ``Closed`` when the consumer has closed the queue; `FFmpegError` (ENOMEM) when a frame struct
    ///   cannot be allocated.
    func put(moving frame: Frame) throws {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !closed { condition.wait() }
        if closed { throw Closed() }
        let slot = try spare.popLast() ?? Frame()
        slot.take(from: frame)
        ready.append(slot)
        condition.broadcast()
    }

    /// Producer: waits until fewer than `capacity` frames wait, so that the next frame, once rendered, is handed over
    /// at once instead of being held by the producer while the queue is full.
    /// - Throws: ``Closed`` when the consumer has closed the queue: stop producing.
    func waitForRoom() throws {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !closed { condition.wait() }
        if closed { throw Closed() }
    }

    /// Producer: no more frames; `error` (if any) is thrown to the consumer once it has taken every frame before it.
    func finish(error: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        if end == nil { end = error.map { .failure($0) } ?? .success(()) }
        condition.broadcast()
    }

    /// Consumer: the oldest frame, waiting while none is ready; nil once the producer has finished without error.
    /// - Throws: the producer's error, after every frame put before it.
    func take() throws -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && end == nil { condition.wait() }
        if !ready.isEmpty {
            let frame = ready.removeFirst()
            condition.broadcast()
            return frame
        }
        switch end {
        case .failure(let error)?: throw error
        default: return nil
        }
    }

    /// Consumer: gives back a frame from ``take()``; its buffers are dropped and the struct is reused.
    func recycle(_ frame: Frame) {
        frame.unref()
        condition.lock()
        defer { condition.unlock() }
        spare.append(frame)
    }

    /// Consumer: stop the producer (its next or current ``put(moving:)`` throws ``Closed``); frames still waiting are
    /// dropped.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        for frame in ready { frame.unref() }
        ready.removeAll()
        condition.broadcast()
    }
}
