import Dispatch
import Foundation
package import CMedia

/// Sends encoded packets live, on a thread of its own: the network muxer (FLV to an RTMP server, MPEG-TS to an SRT
/// peer, live HLS into a folder) is opened, written, reconnected and closed there, never on the thread that encodes.
///
/// The encoding side hands packets over with ``send(_:)``, which never waits: packets go into a bounded queue holding
/// at most ``Settings/queueDuration`` of stream time (of the pictures; of the sound when there are none). When a
/// write is slow (a stalled server, a full socket) and the queue is full, whole groups of pictures are dropped: the
/// packet that did not fit and every one after it, pictures and sound, up to the next key picture that fits; the
/// drop is reported (``Event/dropped(pictures:duration:)``). Timestamps keep their gap: picture and sound stay in step.
///
/// A connection starts at a key picture, with the stream's time 0 there. A broken connection (a write error, or a
/// write that waited past ``Settings/writeTimeout``, interrupted through FFmpeg's interrupt callback by a watchdog)
/// is made again after waits of 1, 2, 4, 8, 8 s, up to ``Settings/maximumReconnectAttempts``; packets taken
/// meanwhile are not sent. The encoding side may change its source (``switchSource(to:)``: another encoder's
/// packets, e.g. a recording's): with identical codec parameters the connection continues where the stream's time
/// was; otherwise it is closed and a new one opened with the new parameters.
///
/// The owner (``OutputFile``) is made and freed on the sender's thread; what crosses threads is plain data
/// (``StreamDescription``, ``StreamPacket``). Call ``finish()`` to end: queued packets are written, then the trailer.
package final class LiveStreamSender: Sendable {
    /// Timeouts, reconnection and the queue's size.
    package struct Settings: Sendable {
        /// Seconds connecting may take (the interrupt callback stops it then).
        package var connectionTimeout: Double = 5
        /// Seconds one write may wait before the connection counts as broken.
        package var writeTimeout: Double = 5
        /// Attempts to connect again after a connection broke (0: the stream fails at once).
        package var maximumReconnectAttempts = 5
        /// Live HLS: segment length, seconds.
        package var segmentDuration: Double = 2
        /// Live HLS: segments listed.
        package var playlistLength = 5
        /// Stream time the queue holds at most, seconds.
        package var queueDuration: Double = 2
        /// When the queue is full, ``LiveStreamSender/send(_:)`` waits for room instead of dropping (a producer that
        /// can be held, such as a writer fed by an app, rather than a live source).
        package var waitsWhenFull = false

        /// The defaults: 5 s to connect, 5 s per write, 5 reconnection attempts, 2 s HLS segments (5 listed), 2 s of
        /// queue.
        package init() {}
    }

    /// What happens to the stream, in order: `streaming` (each time a connection took the header), `reconnecting`
    /// and `dropped` meanwhile, then `finished` or `failed`, after which nothing follows.
    package enum Event: Sendable, Hashable {
        /// A connection took the stream's header; packets follow.
        case streaming
        /// The connection broke; attempt `attempt` (from 1) follows after a wait.
        case reconnecting(attempt: Int)
        /// The queue was full: `pictures` pictures (and the sound beside them) were not sent, `duration` µs of
        /// stream time from the first dropped packet to the key picture sending resumed with.
        case dropped(pictures: Int, duration: Int64)
        /// The trailer was written; `sent` µs of stream time went out over all connections.
        case finished(sent: Int64)
        /// The stream ended on an error.
        case failed(Failure)
    }

    /// Why a stream failed, in FFmpeg's or the sender's words.
    package enum Failure: Error, Sendable, Hashable {
        /// The first connection could not be made (refused, unreachable, or no answer within the timeout).
        case connectionFailed(String)
        /// A connection broke and no attempt to make it again succeeded.
        case connectionLost(String)
    }

    /// One stream of the source: its codec parameters and the time base of its packets' timestamps.
    package struct StreamDescription: Sendable, Hashable {
        package var parameters: CodecParameters
        package var timeBaseNumerator: Int32
        package var timeBaseDenominator: Int32

        package init(parameters: CodecParameters, timeBase: AVRational) {
            self.parameters = parameters
            (timeBaseNumerator, timeBaseDenominator) = (timeBase.num, timeBase.den)
        }

        var timeBase: AVRational { AVRational(num: timeBaseNumerator, den: timeBaseDenominator) }
        var isVideo: Bool { parameters.mediaType == AVMEDIA_TYPE_VIDEO.rawValue }
    }

    /// An encoded packet as plain data: its stream's index in the source, timestamps and duration in that stream's
    /// time base, whether it is a key frame, and a copy of its payload.
    package struct StreamPacket: Sendable {
        package var stream: Int
        package var presentationTimestamp: Int64
        package var decodingTimestamp: Int64
        package var duration: Int64
        package var isKeyFrame: Bool
        package var bytes: [UInt8]

        /// A copy of `packet` (its payload copied; a missing decoding time is the presentation time).
        package init(_ packet: Packet) {
            stream = packet.streamIndex
            presentationTimestamp = packet.presentationTimestamp ?? packet.decodingTimestamp ?? 0
            decodingTimestamp = packet.decodingTimestamp ?? presentationTimestamp
            duration = packet.duration
            isKeyFrame = packet.isKeyFrame
            bytes = packet.data
        }
    }

    /// What the sender's thread takes from the queue, in order.
    enum Item: Sendable {
        case source([StreamDescription])
        case packet(StreamPacket)
        case end
    }

    /// The queue between the encoding side and the sender's thread.
    private struct Queue: Sendable {
        var items: [Item] = []
        var head = 0
        /// Stream time queued, µs (the paced stream's packets).
        var queued: Int64 = 0
        /// The encoding side's current source (for the paced stream and the packets' durations).
        var source: [StreamDescription]
        /// The drop under way: pictures dropped, and the first dropped packet's time, µs.
        var dropping: (pictures: Int, since: Int64)?
        /// True once ``finish()`` was called or the thread ended: nothing more is queued.
        var closed = false
    }

    package let destination: LiveStreamDestination
    package let settings: Settings
    private let queue: Locked<Queue>
    private let signal = DispatchSemaphore(value: 0)
    /// Signalled when a packet leaves the queue (a waiting ``send(_:)`` looks again).
    private let space = DispatchSemaphore(value: 0)
    private let events: @Sendable (Event) -> Void
    private let ended = Locked(false)

    /// Starts the sender's thread, which connects at once to `destination` with `source`'s streams and reports what
    /// happens through `events` (called on the sender's thread, or on the caller's for ``Event/dropped(pictures:duration:)``).
    package init(destination: LiveStreamDestination, source: [StreamDescription], settings: Settings,
                 events: @escaping @Sendable (Event) -> Void) {
        self.destination = destination
        self.settings = settings
        self.events = events
        queue = Locked(Queue(source: source))
        WorkerThread.start(name: "splice.stream") { [self] in
            var connection = LiveStreamConnection(sender: self)
            connection.run(source: source)
            queue.withLock { $0.closed = true; $0.items = []; $0.head = 0 }
            ended.withLock { $0 = true }
        }
    }

    /// True once the stream finished or failed (its last event was sent).
    package var hasEnded: Bool { ended.withLock { $0 } }

    /// Queues a packet of the current source, or drops it (see the type's discussion); never waits, unless
    /// ``Settings/waitsWhenFull``: then it waits while the queue is full and the stream runs.
    package func send(_ packet: StreamPacket) {
        var report: Event?
        var queued = false
        while true {
            var full = false
            queued = queue.withLock { queue -> Bool in
                guard !queue.closed, packet.stream < queue.source.count else { return false }
                let description = queue.source[packet.stream]
                let paced = queue.source.contains(where: \.isVideo) ? description.isVideo : packet.stream == 0
                let time = av_rescale_q(packet.presentationTimestamp, description.timeBase, AVRational(num: 1, den: 1_000_000))
                let length = paced ? av_rescale_q(packet.duration, description.timeBase, AVRational(num: 1, den: 1_000_000)) : 0
                // An empty queue takes any packet.
                let fits = queue.queued == 0 || queue.queued + length <= Int64(settings.queueDuration * 1_000_000)
                if settings.waitsWhenFull {
                    guard fits else {
                        full = true
                        return false
                    }
                } else if let dropping = queue.dropping {
                    guard paced, packet.isKeyFrame, fits else {
                        if paced { queue.dropping?.pictures += description.isVideo ? 1 : 0 }
                        return false
                    }
                    report = .dropped(pictures: dropping.pictures, duration: max(0, time - dropping.since))
                    queue.dropping = nil
                } else if !fits {
                    queue.dropping = (description.isVideo ? 1 : 0, time)
                    return false
                }
                queue.items.append(.packet(packet))
                queue.queued += length
                return true
            }
            guard full else { break }
            _ = space.wait(timeout: .now() + 0.05)
        }
        if let report { events(report) }
        if queued { signal.signal() }
    }

    /// From the next packet on, packets come from another source (another encoder) with these streams; its first
    /// packet of pictures must be a key picture.
    package func switchSource(to source: [StreamDescription]) {
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            queue.source = source
            queue.items.append(.source(source))
            return true
        }
        if accepted { signal.signal() }
    }

    /// Ends the stream: the queued packets are written, then the trailer, and ``Event/finished(sent:)`` (or
    /// ``Event/failed(_:)``) is reported from the sender's thread. Returns at once.
    package func finish() {
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            queue.closed = true
            queue.items.append(.end)
            return true
        }
        if accepted { signal.signal() }
    }

    /// The next item, waiting at most `seconds`; nil when none came.
    func take(waiting seconds: Double) -> Item? {
        if let item = pop() { return item }
        _ = signal.wait(timeout: .now() + seconds)
        return pop()
    }

    private func pop() -> Item? {
        let item = queue.withLock { queue -> Item? in
            guard queue.head < queue.items.count else { return nil }
            let item = queue.items[queue.head]
            queue.head += 1
            if queue.head >= 256, queue.head * 2 >= queue.items.count {
                queue.items.removeFirst(queue.head)
                queue.head = 0
            }
            if case .packet(let packet) = item, packet.stream < queue.source.count {
                let description = queue.source[packet.stream]
                let paced = queue.source.contains(where: \.isVideo) ? description.isVideo : packet.stream == 0
                if paced {
                    queue.queued = max(0, queue.queued - av_rescale_q(packet.duration, description.timeBase, AVRational(num: 1, den: 1_000_000)))
                }
            }
            return item
        }
        if item != nil, settings.waitsWhenFull { space.signal() }
        return item
    }

    /// Tells the owner what happened (on the sender's thread).
    func report(_ event: Event) { events(event) }
}
