import Composition
import SpliceFFmpeg

/// Delivers the session's sound to code (AVFoundation's `AVCaptureAudioDataOutput`) as a stream of
/// ``CaptureAudioBuffer``s: float PCM, one array per channel, each buffer as the device delivered it, stamped on the
/// session clock.
///
/// Sound is never dropped here: buffers wait in a queue of at most ``maxQueuedBufferCount``; when it is full the
/// session's thread waits for the consumer (back-pressure), so memory stays bounded. A consumer much slower than
/// real time therefore slows the whole session down (a device may then drop sound itself).
public final class CaptureAudioDataOutput: CaptureOutput {
    struct State: Sendable {
        var queueCapacity = 64
        var connections: [CaptureConnection] = []
        var queue: SampleQueue<CaptureAudioBuffer>?
    }

    let state = Locked(State())

    /// An output queueing at most 64 buffers (about 1.4 s of 1024-sample buffers at 48 kHz).
    public init() {}

    /// Audio.
    public var acceptedMediaTypes: Set<MediaType> { [.audio] }

    /// The connection made when the session started (one, for the audio input).
    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    /// The longest queue, buffers (default 64, at least 1). Read when ``buffers()`` is called.
    public var maxQueuedBufferCount: Int {
        get { state.withLock { $0.queueCapacity } }
        set { state.withLock { $0.queueCapacity = max(1, newValue) } }
    }

    /// The most buffers that waited in the current stream's queue at once.
    public var peakQueuedBufferCount: Int { state.withLock { $0.queue?.peakQueuedCount ?? 0 } }

    /// The sound from now on, until the session stops (AVFoundation's sample-buffer delegate). A new call replaces
    /// the previous stream, which ends.
    public func buffers() -> CaptureSampleStream<CaptureAudioBuffer> {
        let queue = state.withLock { state -> SampleQueue<CaptureAudioBuffer> in
            state.queue?.finish()
            let queue = SampleQueue<CaptureAudioBuffer>(policy: .backPressure(capacity: state.queueCapacity))
            state.queue = queue
            return queue
        }
        return CaptureSampleStream(queue: queue)
    }

    /// The stream being fed, nil when nobody listens.
    var activeQueue: SampleQueue<CaptureAudioBuffer>? {
        state.withLock { state in
            guard let queue = state.queue, !queue.isFinished else { return nil }
            return queue
        }
    }

    /// Ends the current stream (the session stopped).
    func finishStream() { state.withLock { $0.queue }?.finish() }
}

extension CaptureAudioDataOutput: ConnectableOutput {
    func connect(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }
}
