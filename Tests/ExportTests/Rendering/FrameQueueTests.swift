import Foundation
import Testing
@testable import Export
import SpliceFFmpeg

/// ``FrameQueue``, the render thread's hand-off to the encoder: a producer that waits for room before rendering holds
/// no finished picture while the queue is full.
@Suite("Frame queue")
struct FrameQueueTests {
    @Test func waitForRoomReturnsOnlyOnceAFrameIsTaken() throws {
        let queue = FrameQueue(capacity: 1)
        try queue.put(moving: Frame())
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? queue.waitForRoom()
            returned.signal()
        }
        // Full: the producer waits (nothing can wake it before the take below).
        #expect(returned.wait(timeout: .now() + 0.3) == .timedOut)
        let frame = try #require(try queue.take())
        #expect(returned.wait(timeout: .now() + 60) == .success)
        queue.recycle(frame)
        // With room, it returns at once.
        try queue.waitForRoom()
    }

    @Test func waitForRoomThrowsOnceTheConsumerCloses() throws {
        let queue = FrameQueue(capacity: 1)
        try queue.put(moving: Frame())
        let threw = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { try queue.waitForRoom() } catch is FrameQueue.Closed { threw.signal() } catch {}
        }
        #expect(threw.wait(timeout: .now() + 0.3) == .timedOut)
        queue.close()
        #expect(threw.wait(timeout: .now() + 60) == .success)
    }
}
