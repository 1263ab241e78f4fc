import SpliceFFmpeg
import Testing

@Suite("Progress broadcast")
struct ProgressBroadcastTests {
    @Test("a stream starts with the current value, skips values that go back, gets 1.0 at completion, then ends")
    func completedRun() async {
        var broadcast = ProgressBroadcast()
        var updates = broadcast.makeStream().makeAsyncIterator()
        #expect(await updates.next() == 0)
        let sent = [0.25, 0.1, 0.25].map { broadcast.publish($0) }
        #expect(sent == [true, false, false])
        #expect(await updates.next() == 0.25)
        broadcast.publish(0.5)
        #expect(await updates.next() == 0.5)
        broadcast.finish(completed: true)
        #expect(broadcast.value == 1)
        #expect(await updates.next() == 1)
        #expect(await updates.next() == nil)
    }

    @Test("a failed run keeps its last value and ignores later ones; a stream made afterwards gives that value and ends; a restart begins at 0")
    func failedRunAndRestart() async {
        var broadcast = ProgressBroadcast()
        broadcast.publish(0.4)
        broadcast.finish(completed: false)
        let late = broadcast.publish(0.6)
        #expect(!late)
        #expect(broadcast.value == 0.4 && broadcast.isFinished)
        var ended = broadcast.makeStream().makeAsyncIterator()
        #expect(await ended.next() == 0.4)
        #expect(await ended.next() == nil)

        broadcast.restart()
        #expect(broadcast.value == 0 && !broadcast.isFinished)
        var again = broadcast.makeStream().makeAsyncIterator()
        #expect(await again.next() == 0)
        broadcast.publish(0.3)
        #expect(await again.next() == 0.3)
    }
}
