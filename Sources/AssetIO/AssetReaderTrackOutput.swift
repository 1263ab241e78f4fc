import Foundation
import Composition
import SpliceFFmpeg

/// The samples of one track, as AVFoundation's `AVAssetReaderTrackOutput`: with nil settings the stored compressed
/// samples (what a passthrough ``AssetWriterInput`` takes), otherwise decoded pictures or sound in the format the
/// ``AssetReaderOutputSettings`` name.
///
/// Take samples with ``copyNextSampleBuffer()`` or iterate the output (`for try await sample in output`). The
/// output's thread reads ahead by at most ``readAheadCount`` samples and waits while they are not taken
/// (back-pressure).
public final class AssetReaderTrackOutput: Sendable {
    /// Samples read ahead of the consumer, at most.
    public static let readAheadCount = 4

    /// The track read.
    public let track: AssetTrack
    /// What the samples are decoded to; nil hands out the stored compressed samples.
    public let outputSettings: AssetReaderOutputSettings?
    /// The track's media type.
    public var mediaType: MediaType { track.mediaType }

    private struct State {
        weak var reader: AssetReader?
        var started = false
        var succeeded = false
    }

    private let state = Locked(State())

    deinit {
        // The thread holds the queue, not the output: an output dropped mid-read stops it (its next delivery fails).
        queue.finish()
    }
    let queue = SampleQueue<SampleBuffer>(policy: .backPressure(capacity: AssetReaderTrackOutput.readAheadCount))

    /// An output reading `track` decoded per `outputSettings` (nil: compressed, as stored).
    public init(track: AssetTrack, outputSettings: AssetReaderOutputSettings?) {
        self.track = track
        self.outputSettings = outputSettings
    }

    /// The next sample in presentation order (decoded) or decode order (compressed); nil at the end, when the
    /// reader failed or was cancelled (see ``AssetReader/status``), before ``AssetReader/startReading()``, or when the
    /// calling task is cancelled.
    public func copyNextSampleBuffer() async -> SampleBuffer? {
        guard state.withLock({ $0.started }) else { return nil }
        if let sample = await queue.next() { return sample }
        let (succeeded, reader) = state.withLock { ($0.succeeded, $0.reader) }
        if succeeded && !Task.isCancelled { reader?.outputDrained(self) }
        return nil
    }

    /// The most samples that ever waited for the consumer at once (at most ``readAheadCount``).
    package var peakReadAheadCount: Int { queue.peakQueuedCount }

    /// The reader's error once it has failed, else nil.
    var readerError: AssetReaderError? { state.withLock { $0.reader }?.error }

    func attach(to reader: AssetReader) {
        state.withLock { $0.reader = reader }
    }

    /// Starts this output's thread reading `url`.
    func start(url: URL, timeRange: TimeRange?, cancellation: CancellationFlag) {
        state.withLock { $0.started = true }
        let job = TrackReadingJob(url: url, track: track, settings: outputSettings, timeRange: timeRange)
        let queue = self.queue, state = self.state, track = self.track
        WorkerThread.start(name: "splice-reader") {
            do {
                try TrackReading(job: job, cancellation: cancellation).run { sample in
                    queue.deliver(sample, stop: cancellation) { _, _ in }
                }
                state.withLock { $0.succeeded = true }
                queue.finish()
            } catch {
                // The reader fails before the queue ends, so a consumer woken by the end already sees the error.
                let reader = state.withLock { $0.reader }
                if !FFmpegError.isCancellation(error, cancelled: cancellation.isCancelled) {
                    let failure = error as? AssetReaderError
                        ?? AssetReaderError.readFailed(url, trackID: track.trackID, time: nil, reason: FailureReason.words(for: error))
                    reader?.outputFailed(failure)
                }
                queue.finish()
            }
        }
    }

    /// Ends the output: its thread stops at its next sample and the consumer gets nil.
    func stop() {
        queue.finish()
    }
}

extension AssetReaderTrackOutput: AsyncSequence {
    public typealias Element = SampleBuffer

    /// Iterates an output's samples; throws the reader's error when it failed, `CancellationError` when the task or
    /// the reader was cancelled.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let output: AssetReaderTrackOutput

        public mutating func next() async throws -> SampleBuffer? {
            if let sample = await output.copyNextSampleBuffer() { return sample }
            if let error = output.readerError { throw error }
            try Task.checkCancellation()
            if output.state.withLock({ $0.reader })?.status == .cancelled { throw CancellationError() }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(output: self) }
}
