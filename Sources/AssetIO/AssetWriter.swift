import Foundation
import Composition
import Export
import SpliceFFmpeg

/// Writes samples into a new media file, encoding them or copying them as they are, as AVFoundation's
/// `AVAssetWriter`.
///
/// Add one ``AssetWriterInput`` per track, ``startWriting()``, ``startSession(atSourceTime:)``, append samples to
/// the inputs (each input's ``AssetWriterInput/append(_:)`` suspends while the encoder is behind), mark each input
/// finished, then ``finishWriting()``. The encoding and muxing run on a thread of the writer's own; the file is
/// written beside ``outputURL`` and appears under that name only when ``finishWriting()`` succeeds (as an export's:
/// a failure, a cancellation or a crash leaves nothing).
public final class AssetWriter: Sendable {
    /// Where the writer is in its life.
    public enum Status: Sendable, Hashable {
        /// Inputs can be added; not started.
        case unknown
        /// ``AssetWriter/startWriting()`` was called; samples are taken.
        case writing
        /// The file is complete at ``AssetWriter/outputURL``.
        case completed
        /// Writing failed; ``AssetWriter/error`` says why. Nothing was left at the output URL.
        case failed
        /// ``AssetWriter/cancelWriting()`` was called. Nothing was left at the output URL.
        case cancelled
    }

    private struct State {
        var inputs: [AssetWriterInput] = []
        var status: Status = .unknown
        var error: AssetWriterError?
        var sessionStart: MediaTime?
        var shouldOptimizeForNetworkUse = false
    }

    /// The file written.
    public let outputURL: URL
    /// Its container.
    public let outputFileType: FileType
    private let state = Locked(State())
    let channel = WriterChannel(capacity: 8)
    let cancellation = CancellationFlag()

    /// A writer of `outputURL` as `fileType` (``FileType/mp4``, ``FileType/mov``, ``FileType/m4a``,
    /// ``FileType/mkv``, ``FileType/webm``).
    /// - Throws: ``AssetWriterError/outputFileExists(_:)`` when a file is already there (AVFoundation's writer
    ///   refuses it too); ``AssetWriterError/invalidState(operation:reason:)`` for a URL that is not a file URL.
    public init(outputURL: URL, fileType: FileType) throws {
        guard outputURL.isFileURL else {
            throw AssetWriterError.invalidState(operation: "create a writer", reason: "\(outputURL) is not a file URL")
        }
        if FileManager.default.fileExists(atPath: outputURL.path) { throw AssetWriterError.outputFileExists(outputURL) }
        self.outputURL = outputURL
        outputFileType = fileType
    }

    deinit {
        // A writer dropped before finishWriting() is cancelled: its thread ends and the temporary file is dropped.
        cancellation.cancel()
        channel.post(.cancel)
    }

    /// The inputs added, in order (the file's tracks, in this order).
    public var inputs: [AssetWriterInput] { state.withLock { $0.inputs } }

    /// The writer's status.
    public var status: Status {
        state.withLock { state in
            if state.status == .writing, channel.failure != nil { return .failed }
            return state.status
        }
    }

    /// Why the writer failed, else nil.
    public var error: AssetWriterError? {
        state.withLock { state in
            state.status == .cancelled ? nil : state.error ?? channel.failure
        }
    }

    /// MP4/MOV/M4A: move the `moov` box to the front when the file is finished (`movflags=+faststart`), so playback
    /// can start before the whole file has arrived. Set before ``startWriting()``.
    public var shouldOptimizeForNetworkUse: Bool {
        get { state.withLock { $0.shouldOptimizeForNetworkUse } }
        set { state.withLock { if $0.status == .unknown { $0.shouldOptimizeForNetworkUse = newValue } } }
    }

    /// The session's start time, once ``startSession(atSourceTime:)`` was called.
    var sessionStart: MediaTime? { state.withLock { $0.sessionStart } }

    /// The writer's status, as seen by its inputs.
    var isWriting: Bool { status == .writing }

    /// True when `input` can be added: the writer has not started and the container can hold its media.
    public func canAdd(_ input: AssetWriterInput) -> Bool { (try? check(input)) != nil }

    private func check(_ input: AssetWriterInput) throws {
        if state.withLock({ $0.status }) != .unknown {
            throw AssetWriterError.invalidState(operation: "add an input", reason: "the writer has already started")
        }
        if input.mediaType == .video && !outputFileType.supportsVideo {
            throw AssetWriterError.unsupportedInput(input: "video input",
                                                    reason: "a .\(outputFileType.rawValue) file holds no video")
        }
        if input.mediaType != .video && input.mediaType != .audio {
            throw AssetWriterError.unsupportedInput(input: "\(input.mediaType.rawValue) input",
                                                    reason: "only video and audio inputs are written")
        }
    }

    /// Adds `input` as the file's next track.
    /// - Throws: ``AssetWriterError/invalidState(operation:reason:)`` after ``startWriting()``;
    ///   ``AssetWriterError/unsupportedInput(input:reason:)`` when the container cannot hold it.
    public func add(_ input: AssetWriterInput) throws {
        try check(input)
        let index = try state.withLock { state -> Int in
            if state.inputs.contains(where: { $0 === input }) {
                throw AssetWriterError.invalidState(operation: "add an input", reason: "it was already added")
            }
            state.inputs.append(input)
            return state.inputs.count - 1
        }
        try input.attach(to: self, index: index)
    }

    /// Starts the writer's thread, which creates the temporary file beside ``outputURL``.
    ///
    /// AVFoundation returns false here; this throws the same error and sets ``error``. A file that cannot be
    /// created fails the writer at the first append or at ``finishWriting()``.
    /// - Throws: ``AssetWriterError/invalidState(operation:reason:)`` when already started or without inputs.
    public func startWriting() throws {
        let job: WriterJob = try state.withLock { state in
            guard state.status == .unknown else {
                throw AssetWriterError.invalidState(operation: "start writing", reason: "the writer has already started")
            }
            guard !state.inputs.isEmpty else {
                let error = AssetWriterError.invalidState(operation: "start writing", reason: "no inputs were added")
                state.status = .failed
                state.error = error
                throw error
            }
            state.status = .writing
            return WriterJob(url: outputURL, fileType: outputFileType,
                             inputs: state.inputs.map { WriterJob.Input(mediaType: $0.mediaType, settings: $0.outputSettings) },
                             optimizeForNetworkUse: state.shouldOptimizeForNetworkUse)
        }
        let channel = self.channel, cancellation = self.cancellation
        WorkerThread.start(name: "splice-writer") {
            WriterEngine.run(job: job, channel: channel, cancellation: cancellation)
        }
    }

    /// Starts the session at `time`: samples are written relative to it (a sample at `time` lands at 0 in the
    /// file), and none may come before it. Call once, after ``startWriting()``.
    public func startSession(atSourceTime time: MediaTime) {
        state.withLock { state in
            guard state.status == .writing, state.sessionStart == nil, time.isNumeric else { return }
            state.sessionStart = time
            // Queued under the writer's lock: no append can pass its session check and reach the thread first.
            channel.post(.startSession(time))
        }
    }

    /// Finishes every input not yet finished, writes the file's trailer and gives the file its name.
    /// - Throws: the ``AssetWriterError`` the writer failed with (also in ``error``; status `failed`);
    ///   ``AssetWriterError/invalidState(operation:reason:)`` when the writer is not writing.
    public func finishWriting() async throws {
        guard state.withLock({ $0.status }) == .writing else {
            throw AssetWriterError.invalidState(operation: "finish writing", reason: "the writer is not writing")
        }
        channel.post(.finish)
        let outcome = await channel.outcome()
        state.withLock { state in
            guard state.status == .writing else { return }
            switch outcome {
            case .success: state.status = .completed
            case .failure(let error):
                state.status = .failed
                state.error = error
            }
        }
        if case .failure(let error) = outcome { throw error }
    }

    /// Stops writing: the thread stops, the temporary file is dropped, nothing appears at ``outputURL``, and the
    /// status becomes `cancelled`. Waiting appends return with ``AssetWriterError/invalidState(operation:reason:)``.
    public func cancelWriting() {
        let wasWriting = state.withLock { state -> Bool in
            guard state.status == .writing || state.status == .unknown else { return false }
            let was = state.status == .writing
            state.status = .cancelled
            return was
        }
        guard wasWriting else { return }
        cancellation.cancel()
        channel.post(.cancel)
    }

    /// The most samples that ever waited for the writer's thread at once (bounded by the queue's capacity, 8).
    package var peakQueuedSampleCount: Int { channel.peakQueuedSamples }

    /// Waits until the thread has ended (after ``cancelWriting()``: the temporary file is gone).
    package func waitUntilEnded() async { _ = await channel.outcome() }
}
