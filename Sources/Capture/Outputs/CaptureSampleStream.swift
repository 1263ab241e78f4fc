import SpliceFFmpeg
/// The frames of a ``CaptureVideoDataOutput`` or the sound buffers of a ``CaptureAudioDataOutput``, in capture
/// order, as an `AsyncSequence` (AVFoundation's sample-buffer delegate callbacks, as a stream).
///
/// One consumer: iterate it once. The stream ends (the loop finishes) when the session stops; a consumer that leaves
/// its loop early releases the output, which stops delivering to it (call the output's stream method again for a new
/// one). How a slow consumer is treated is the output's policy (``CaptureVideoDataOutput/alwaysDiscardsLateVideoFrames``).
public struct CaptureSampleStream<Element: Sendable>: AsyncSequence, Sendable {
    let queue: SampleQueue<Element>

    /// Iterates the stream; the output stops delivering when the iterator is destroyed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: SampleQueue<Element>
        let lifetime: Lifetime

        /// The next sample, waiting for it; nil after the session stopped (or the task was cancelled).
        public mutating func next() async -> Element? { await queue.next() }
    }

    /// Ends the queue when the last iterator copy goes away: the consumer left its loop.
    final class Lifetime: Sendable {
        let queue: SampleQueue<Element>
        init(queue: SampleQueue<Element>) { self.queue = queue }
        deinit { queue.finish() }
    }

    /// The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(queue: queue, lifetime: Lifetime(queue: queue))
    }
}
