import Composition
import SpliceFFmpeg

/// What every output of an ``AssetReader`` does, as AVFoundation's `AVAssetReaderOutput`: hand out samples in order
/// (``copyNextSampleBuffer()`` or `for try await`), and — with ``supportsRandomAccess`` — read further time ranges
/// after the first pass ended (``reset(forReadingTimeRanges:)``).
///
/// The outputs are ``AssetReaderTrackOutput`` (one track of a file), ``AssetReaderVideoCompositionOutput`` (the
/// composited pictures of video tracks) and ``AssetReaderAudioMixOutput`` (the mixed sound of audio tracks). An
/// ``AssetReader`` takes only these.
public protocol AssetReaderOutput: AnyObject, Sendable {
    /// Video or audio.
    var mediaType: MediaType { get }

    /// The next sample; nil at the end of the current pass, when the reader failed or was cancelled (see
    /// ``AssetReader/status``), before ``AssetReader/startReading()``, or when the calling task is cancelled.
    func copyNextSampleBuffer() async -> SampleBuffer?

    /// Whether ``reset(forReadingTimeRanges:)`` may be used (AVFoundation's property of the same name); false by
    /// default. Set it before ``AssetReader/startReading()``; a change afterwards has no effect. A reader with such
    /// an output reaches `completed` only once every such output had ``markConfigurationAsFinal()`` called and
    /// returned nil.
    var supportsRandomAccess: Bool { get set }

    /// Whether each decoded picture is copied into bytes its sample buffer owns (AVFoundation's property of the same
    /// name); true by default. Set it before ``AssetReader/startReading()``; a change afterwards has no effect.
    ///
    /// False lends each decoded picture out without a copy: its ``PixelBuffer`` planes are views of the picture the
    /// reader converted (strides as FFmpeg laid them out), valid until this output's next ``copyNextSampleBuffer()``
    /// call — that call takes the picture back for the reader's later pictures, and from then on the held buffer's
    /// ``PixelBuffer/isValid`` is false and ``PixelBuffer/Plane/withUnsafeBytes(_:)`` throws
    /// ``AssetReaderError/sampleDataNoLongerValid(output:)``. Everything else in the sample buffer (times, format,
    /// colour, sizes) stays valid, and so do compressed samples and decoded sound, which are always copied. Copy the
    /// bytes (``PixelBuffer/Plane/bytes``) or append the picture to a writer before asking for the next sample.
    var alwaysCopiesSampleData: Bool { get set }

    /// Reads `timeRanges` next, one after the other, as AVFoundation's `reset(forReadingTimeRanges:)`: allowed only
    /// with ``supportsRandomAccess``, while the reader is reading, after ``copyNextSampleBuffer()`` returned nil and
    /// before ``markConfigurationAsFinal()``. The ranges (in the time the output's samples are stamped in) must be
    /// valid, start at or after 0, be non-empty, increase and not overlap. Each range's samples follow the rules of
    /// ``AssetReader/timeRange``; the pass ends with nil after the last range.
    /// - Throws: ``AssetReaderError/cannotReset(reason:)`` naming the rule broken;
    ///   ``AssetReaderError/invalidTimeRanges(_:reason:)`` naming the offending range;
    ///   ``AssetReaderError/invalidComposition(_:)`` when a composition output cannot be planned for a range.
    func reset(forReadingTimeRanges timeRanges: [TimeRange]) throws

    /// No more ``reset(forReadingTimeRanges:)`` will come: once the current pass has ended, the output counts as
    /// done for the reader's `completed` status (AVFoundation's `markConfigurationAsFinal()`).
    func markConfigurationAsFinal()
}

extension AssetReaderOutput {
    /// The shared machinery of AssetIO's outputs; nil for a type of another origin.
    var sharedCore: ReaderOutputCore? { (self as? any ReaderOutputParts)?.core }

    /// The next sample in presentation order (decode order for compressed samples); nil at the end of the pass, when
    /// the reader failed or was cancelled (see ``AssetReader/status``), before ``AssetReader/startReading()``, or when
    /// the calling task is cancelled.
    public func copyNextSampleBuffer() async -> SampleBuffer? { await sharedCore?.copyNext() }

    /// Whether ``reset(forReadingTimeRanges:)`` may be used; false by default. Set it before
    /// ``AssetReader/startReading()``; a change afterwards has no effect.
    public var supportsRandomAccess: Bool {
        get { sharedCore?.supportsRandomAccess ?? false }
        set { sharedCore?.supportsRandomAccess = newValue }
    }

    /// Whether each decoded picture is copied into bytes its sample buffer owns; true by default. False lends it out
    /// until the next ``copyNextSampleBuffer()`` call (see the protocol's requirement). Set it before
    /// ``AssetReader/startReading()``; a change afterwards has no effect.
    public var alwaysCopiesSampleData: Bool {
        get { sharedCore?.alwaysCopiesSampleData ?? true }
        set { sharedCore?.alwaysCopiesSampleData = newValue }
    }

    /// Reads `timeRanges` next: a track output in the track's own time (compressed samples from the key frame at or
    /// before each start, decoded samples overlapping each range), a composition output in composition time (frames
    /// on the frame grid and sound on the sample grid from each range's start). See the protocol's requirement for
    /// AVFoundation's rules.
    /// - Throws: ``AssetReaderError/cannotReset(reason:)``, ``AssetReaderError/invalidTimeRanges(_:reason:)``,
    ///   ``AssetReaderError/invalidComposition(_:)``.
    public func reset(forReadingTimeRanges timeRanges: [TimeRange]) throws {
        guard let parts = self as? any ReaderOutputParts else {
            throw AssetReaderError.cannotReset(reason: "\(type(of: self)) is not one of AssetIO's reader outputs")
        }
        try parts.core.reset(to: timeRanges) { range, reader in try parts.makePass(range: range, reader: reader) }
    }

    /// No more resets: the output counts as done for the reader once its pass ends.
    public func markConfigurationAsFinal() { sharedCore?.markConfigurationAsFinal() }

    /// An iterator over the samples (`for try await sample in output`).
    public func makeAsyncIterator() -> AssetReaderOutputIterator { AssetReaderOutputIterator(output: self) }
}

/// One pass of an output's reading, run on its thread: hands each sample to `deliver` in order (stopping when it
/// returns false). Throws what the output's ``ReaderOutputCore/failure`` turns into an ``AssetReaderError``.
typealias ReadingPass = @Sendable (_ cancellation: CancellationFlag, _ deliver: (SampleBuffer) -> Bool) throws -> Void

/// What every concrete output tells its reader: checks against the reader's source, and a pass over a time range.
protocol ReaderOutputParts: AssetReaderOutput {
    var core: ReaderOutputCore { get }
    /// Throws when the output cannot read from `reader`'s source (the wrong track, bad settings).
    func check(for reader: AssetReader) throws
    /// The pass over `range` (nil: everything), planned on the calling thread.
    /// - Throws: ``AssetReaderError`` (a composition output that cannot be planned).
    func makePass(range: TimeRange?, reader: AssetReader) throws -> ReadingPass
}

/// The machinery every output shares: the bounded ``SampleQueue`` its thread fills, the link to its reader, the
/// end-of-pass bookkeeping and random access. Each pass runs on a thread of its own (``WorkerThread``).
final class ReaderOutputCore: Sendable {
    /// Samples read ahead of the consumer, at most.
    static let readAheadCount = 4

    private struct State {
        weak var reader: AssetReader?
        var started = false
        var queue = SampleQueue<SampleBuffer>(policy: .backPressure(capacity: ReaderOutputCore.readAheadCount))
        /// The current pass read everything it was asked.
        var passSucceeded = false
        /// The consumer got nil at the end of the current pass.
        var passEnded = false
        var supportsRandomAccess = false
        var alwaysCopiesSampleData = true
        /// The picture last handed out without a copy, taken back at the next call.
        var lentPicture: SampleDataView?
        var configurationIsFinal = false
        var reportedDrained = false
    }

    private let state = Locked(State())
    /// Turns a pass's error into the reader's error.
    private let failure: @Sendable (any Error) -> AssetReaderError
    /// "track 1", "the video composition output": who is speaking, for messages.
    let name: String

    init(name: String, failure: @escaping @Sendable (any Error) -> AssetReaderError) {
        self.name = name
        self.failure = failure
    }

    deinit {
        // The thread holds the queue, not the output: an output dropped mid-read stops it (its next delivery fails).
        state.withLock { $0.queue }.finish()
    }

    var supportsRandomAccess: Bool {
        get { state.withLock { $0.supportsRandomAccess } }
        set { state.withLock { if !$0.started { $0.supportsRandomAccess = newValue } } }
    }

    var alwaysCopiesSampleData: Bool {
        get { state.withLock { $0.alwaysCopiesSampleData } }
        set { state.withLock { if !$0.started { $0.alwaysCopiesSampleData = newValue } } }
    }

    /// The output's name when its pictures are lent out without a copy, nil when they are copied: what a pass gives
    /// its ``FrameConverter``.
    var lendingOutput: String? { alwaysCopiesSampleData ? nil : name }

    /// The most samples that ever waited for the consumer at once in the current pass.
    var peakReadAheadCount: Int { state.withLock { $0.queue }.peakQueuedCount }

    var reader: AssetReader? { state.withLock { $0.reader } }

    func attach(to reader: AssetReader) {
        state.withLock { $0.reader = reader }
    }

    func copyNext() async -> SampleBuffer? {
        state.withLock { state in
            let lent = state.lentPicture
            state.lentPicture = nil
            return lent
        }?.invalidate()
        guard let queue = state.withLock({ $0.started ? $0.queue : nil }) else { return nil }
        if let sample = await queue.next() {
            if let view = sample.imageBuffer?.view { state.withLock { $0.lentPicture = view } }
            return sample
        }
        guard !Task.isCancelled else { return nil }
        let drainedReader: AssetReader? = state.withLock { state in
            guard state.queue === queue else { return nil }
            state.passEnded = true
            return reportIfDrained(&state)
        }
        drainedReader?.outputDrained(self)
        return nil
    }

    /// The reader to tell that this output is done, once: its pass succeeded and ended, and no reset can follow.
    private func reportIfDrained(_ state: inout State) -> AssetReader? {
        guard state.passEnded, state.passSucceeded, !state.reportedDrained,
              !state.supportsRandomAccess || state.configurationIsFinal else { return nil }
        state.reportedDrained = true
        return state.reader
    }

    func markConfigurationAsFinal() {
        let drainedReader: AssetReader? = state.withLock { state in
            state.configurationIsFinal = true
            return reportIfDrained(&state)
        }
        drainedReader?.outputDrained(self)
    }

    /// Starts the first pass.
    func start(_ pass: @escaping ReadingPass, cancellation: CancellationFlag) {
        let queue: SampleQueue<SampleBuffer> = state.withLock { state in
            state.started = true
            return state.queue
        }
        run([pass], into: queue, cancellation: cancellation)
    }

    /// Checks AVFoundation's rules for a reset to `ranges`, plans their passes with `makePass` and starts them.
    func reset(to ranges: [TimeRange], makePass: (TimeRange, AssetReader) throws -> ReadingPass) throws {
        let reader: AssetReader = try state.withLock { state in
            guard state.supportsRandomAccess else {
                throw AssetReaderError.cannotReset(reason: "supportsRandomAccess of \(name) was not set before startReading()")
            }
            guard let reader = state.reader, state.started, reader.status == .reading else {
                throw AssetReaderError.cannotReset(reason: "the reader of \(name) is not reading")
            }
            guard !state.configurationIsFinal else {
                throw AssetReaderError.cannotReset(reason: "markConfigurationAsFinal() was called on \(name)")
            }
            guard state.passEnded else {
                throw AssetReaderError.cannotReset(
                    reason: "\(name) has not handed out its last sample yet (copyNextSampleBuffer() must return nil first)")
            }
            return reader
        }
        try Self.check(ranges)
        let passes = try ranges.map { try makePass($0, reader) }
        let queue = SampleQueue<SampleBuffer>(policy: .backPressure(capacity: Self.readAheadCount))
        state.withLock { state in
            state.queue = queue
            state.passEnded = false
            state.passSucceeded = false
        }
        run(passes, into: queue, cancellation: reader.cancellation)
    }

    /// AVFoundation's rules for the ranges of a reset: at least one; each valid, numeric, from 0 on, not empty; each
    /// starting at or after the previous one's end.
    static func check(_ ranges: [TimeRange]) throws {
        guard !ranges.isEmpty else { throw AssetReaderError.invalidTimeRanges(ranges, reason: "no time range was given") }
        for (index, range) in ranges.enumerated() {
            guard range.isValid, range.start.isNumeric, range.start >= .zero, range.duration > .zero else {
                throw AssetReaderError.invalidTimeRanges(
                    ranges, reason: "range \(index) (\(range.start.secondsText) + \(range.duration.secondsText)) is not a non-empty range from time ≥ 0")
            }
            if index > 0 {
                let previous = ranges[index - 1]
                guard previous.duration.isNumeric, range.start >= previous.end else {
                    throw AssetReaderError.invalidTimeRanges(
                        ranges, reason: "range \(index) starts at \(range.start.secondsText), before range \(index - 1) ends at \(previous.end.secondsText)")
                }
            }
        }
    }

    /// Runs `passes` one after the other on a new thread, into `queue`.
    private func run(_ passes: [ReadingPass], into queue: SampleQueue<SampleBuffer>, cancellation: CancellationFlag) {
        let state = self.state, failure = self.failure
        WorkerThread.start(name: "splice-reader") {
            do {
                for pass in passes {
                    var stopped = false
                    try pass(cancellation) { sample in
                        let delivered = queue.deliver(sample, stop: cancellation) { _, _ in }
                        if !delivered { stopped = true }
                        return delivered
                    }
                    if stopped { break }
                }
                state.withLock { if $0.queue === queue { $0.passSucceeded = true } }
                queue.finish()
            } catch {
                // The reader fails before the queue ends, so a consumer woken by the end already sees the error.
                let reader = state.withLock { $0.reader }
                if !FFmpegError.isCancellation(error, cancelled: cancellation.isCancelled) {
                    reader?.outputFailed(failure(error))
                }
                queue.finish()
            }
        }
    }

    /// Ends the current pass: the thread stops at its next sample and the consumer gets nil.
    func stop() {
        state.withLock { $0.queue }.finish()
    }
}

/// Iterates an output's samples (`for try await sample in output`); throws the reader's error when it failed,
/// `CancellationError` when the task or the reader was cancelled.
public struct AssetReaderOutputIterator: AsyncIteratorProtocol {
    let output: any AssetReaderOutput

    /// The next sample; nil at the end of the pass.
    /// - Throws: the reader's ``AssetReaderError`` once it failed; `CancellationError` when the task or the reader
    ///   was cancelled.
    public mutating func next() async throws -> SampleBuffer? {
        if let sample = await output.copyNextSampleBuffer() { return sample }
        let reader = output.sharedCore?.reader
        if let error = reader?.error { throw error }
        try Task.checkCancellation()
        if reader?.status == .cancelled { throw CancellationError() }
        return nil
    }
}
