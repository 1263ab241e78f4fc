import Dispatch
import Composition
import SpliceFFmpeg

/// The hand-over from a writer's callers (async) to its thread (blocking): a queue of commands of which at most
/// `capacity` samples wait at once, and of those at most `pictureCapacity` uncompressed pictures (a 1080p BGRA
/// picture is 8 MB; audio buffers and compressed packets are small). An `append` finding no room suspends until the
/// thread takes a sample (back-pressure: memory stays bounded however fast the producer is); other commands are
/// never held back. The thread ends it with an outcome every ``outcome()`` caller receives.
final class WriterChannel: Sendable {
    enum Command: Sendable {
        case startSession(MediaTime)
        case endSession(MediaTime)
        case sample(input: Int, SampleBuffer)
        case finishInput(Int)
        case finish
        case cancel
    }

    private struct State {
        var commands: [Command] = []
        var queuedSamples = 0
        var queuedPictures = 0
        var peakQueuedSamples = 0
        var peakQueuedPictures = 0
        var producers: [CheckedContinuation<Bool?, Never>] = []
        var outcome: Result<Void, AssetWriterError>?
        var outcomeWaiters: [CheckedContinuation<Result<Void, AssetWriterError>, Never>] = []
    }

    private enum Step { case accepted, refused, waiting }

    let capacity: Int
    let pictureCapacity: Int
    private let state = Locked(State())
    private let available = DispatchSemaphore(value: 0)

    init(capacity: Int, pictureCapacity: Int) {
        self.capacity = max(1, capacity)
        self.pictureCapacity = max(1, min(pictureCapacity, capacity))
    }

    /// True while any sample can be queued without waiting (a picture included).
    var hasRoom: Bool {
        state.withLock { $0.outcome == nil && $0.queuedSamples < capacity && $0.queuedPictures < pictureCapacity }
    }

    /// The most samples ever waiting at once (at most ``capacity``).
    var peakQueuedSamples: Int { state.withLock { $0.peakQueuedSamples } }

    /// The most uncompressed pictures ever waiting at once (at most ``pictureCapacity``).
    var peakQueuedPictures: Int { state.withLock { $0.peakQueuedPictures } }

    /// The thread's failure, once it has failed.
    var failure: AssetWriterError? {
        state.withLock { state in
            if case .failure(let error)? = state.outcome { return error }
            return nil
        }
    }

    /// Queues `command`, suspending while `capacity` samples wait, or `pictureCapacity` pictures for a picture
    /// (samples only). False when the channel has ended.
    func send(_ command: Command) async -> Bool {
        let isSample: Bool, isPicture: Bool
        if case .sample(_, let sample) = command {
            isSample = true
            isPicture = sample.imageBuffer != nil
        } else {
            isSample = false
            isPicture = false
        }
        while true {
            let result: Bool? = await withCheckedContinuation { (continuation: CheckedContinuation<Bool?, Never>) in
                let step: Step = state.withLock { state in
                    if state.outcome != nil { return .refused }
                    if !isSample || (state.queuedSamples < capacity && (!isPicture || state.queuedPictures < pictureCapacity)) {
                        state.commands.append(command)
                        if isSample {
                            state.queuedSamples += 1
                            state.peakQueuedSamples = max(state.peakQueuedSamples, state.queuedSamples)
                        }
                        if isPicture {
                            state.queuedPictures += 1
                            state.peakQueuedPictures = max(state.peakQueuedPictures, state.queuedPictures)
                        }
                        return .accepted
                    }
                    state.producers.append(continuation)
                    return .waiting
                }
                switch step {
                case .accepted:
                    available.signal()
                    continuation.resume(returning: true)
                case .refused:
                    continuation.resume(returning: false)
                case .waiting:
                    break
                }
            }
            if let result { return result }
        }
    }

    /// Queues a command that never waits (`finishInput`, `startSession`, `endSession`, `finish`, `cancel`); false
    /// once ended.
    @discardableResult
    func post(_ command: Command) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.outcome == nil else { return false }
            state.commands.append(command)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// The thread's next command, waiting for one. Taking a sample wakes every waiting producer to try again: a
    /// picture's producer and an audio producer wait for different room.
    func receive() -> Command {
        available.wait()
        let (command, woken): (Command, [CheckedContinuation<Bool?, Never>]) = state.withLock { state in
            let command = state.commands.removeFirst()
            guard case .sample(_, let sample) = command else { return (command, []) }
            state.queuedSamples -= 1
            if sample.imageBuffer != nil { state.queuedPictures -= 1 }
            let woken = state.producers
            state.producers.removeAll()
            return (command, woken)
        }
        for producer in woken { producer.resume(returning: nil) }
        return command
    }

    /// Ends the channel with `outcome`: waiting producers and every ``outcome()`` caller are released.
    func close(_ outcome: Result<Void, AssetWriterError>) {
        let (producers, waiters) = state.withLock { state in
            if state.outcome == nil { state.outcome = outcome }
            defer {
                state.producers = []
                state.outcomeWaiters = []
            }
            return (state.producers, state.outcomeWaiters)
        }
        for producer in producers { producer.resume(returning: nil) }
        let final = state.withLock { $0.outcome! }
        for waiter in waiters { waiter.resume(returning: final) }
    }

    /// Waits for the thread's outcome.
    func outcome() async -> Result<Void, AssetWriterError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<Void, AssetWriterError>? in
                if let outcome = state.outcome { return outcome }
                state.outcomeWaiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
