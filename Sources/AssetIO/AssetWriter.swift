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
///
/// A writer made with ``init(contentType:)`` writes no file: it cuts fragmented MP4 into an initialization segment
/// and media segments of about ``preferredOutputSegmentInterval`` each, every one starting on a key frame, and hands
/// them to its ``delegate`` as they are made (AVFoundation's segment output; ``HLSSegmentFileWriter`` writes them as
/// files with an HLS playlist).
///
/// A writer made with ``init(liveStreamURL:)`` writes no file either: it streams live, as a capture session's live-stream
/// output does and through the same sender (an RTMP server, an SRT peer, or live HLS in a folder).
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

    /// The writer's settings and where it is in its life, under one lock.
    struct State {
        var inputs: [AssetWriterInput] = []
        var status: Status = .unknown
        var error: AssetWriterError?
        var sessionStart: MediaTime?
        var sessionEnd: MediaTime?
        var shouldOptimizeForNetworkUse = false
        var movieFragmentInterval = MediaTime.invalid
        var metadata: [MetadataItem] = []
        var outputFileTypeProfile: AssetWriterFileTypeProfile?
        var preferredOutputSegmentInterval = MediaTime.invalid
        var initialSegmentStartTime = MediaTime.zero
        var delegate: (any AssetWriterDelegate)?
        var liveStreamConnectionTimeout = MediaTime(seconds: 5)
    }

    /// The file written; nil for a writer made with ``init(contentType:)``, which hands segments to its delegate, or
    /// with ``init(liveStreamURL:)``.
    public let outputURL: URL?
    /// Where a writer made with ``init(liveStreamURL:)`` streams; nil for the others.
    public let liveStreamURL: URL?
    /// Where a live-stream writer sends its packets, read from ``liveStreamURL``.
    let liveStream: LiveStreamDestination?
    /// Its container.
    public let outputFileType: FileType
    let state = Locked(State())
    /// At most 8 samples wait for the writer's thread, of them at most 1 uncompressed picture: the one the thread
    /// takes next while it encodes another (the producer meanwhile draws the one after; the encoder keeps its own
    /// look-ahead). Each picture more would hold 8 MB at 1080p BGRA.
    let channel = WriterChannel(capacity: 8, pictureCapacity: 1)
    let cancellation = CancellationFlag()

    /// A writer of `outputURL` as `fileType` (``FileType/mp4``, ``FileType/mov``, ``FileType/m4a``,
    /// ``FileType/mkv``, ``FileType/webm``).
    /// - Throws: ``AssetWriterError/outputFileExists(_:)`` when a file is already there (AVFoundation's writer
    ///   refuses it too); ``AssetWriterError/invalidState(operation:reason:)`` for a URL that is not a file URL.
    public convenience init(outputURL: URL, fileType: FileType) throws {
        guard outputURL.isFileURL else {
            throw AssetWriterError.invalidState(operation: "create a writer", reason: "\(outputURL) is not a file URL")
        }
        if FileManager.default.fileExists(atPath: outputURL.path) { throw AssetWriterError.outputFileExists(outputURL) }
        self.init(outputURL: outputURL, fileType: fileType, liveStreamURL: nil, liveStream: nil)
    }

    /// A writer of one of the three kinds: a file (`outputURL`), segments (neither URL) or a live stream.
    init(outputURL: URL?, fileType: FileType, liveStreamURL: URL?, liveStream: LiveStreamDestination?) {
        self.outputURL = outputURL
        outputFileType = fileType
        self.liveStreamURL = liveStreamURL
        self.liveStream = liveStream
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

    /// How often the file is written as a movie fragment (AVFoundation's `movieFragmentInterval`), for MP4 and MOV:
    /// invalid (the default) writes a regular movie. With a positive interval the file is a fragmented MP4
    /// (`movflags=frag_custom+delay_moov+default_base_moof`): a fragment is written and flushed to disk each time
    /// a sample reaches the next multiple of the interval, so a process killed while writing leaves a file that
    /// plays up to its last fragment. The `moov` is written with the first fragment, once every track has given
    /// the muxer a sample (an encoder holds its first pictures or sound a while), so its edit lists hide an AAC
    /// encoder's priming and a B-frame stream's reordering delay exactly as a regular movie's do: both files start
    /// their pictures and sound at the same times, from the first sample. The file is written under ``outputURL``
    /// itself from the start (as AVFoundation does) instead of appearing only when finished; a failure or
    /// ``cancelWriting()`` still removes it. The finished file stays fragmented (AVFoundation rewrites it as a
    /// regular movie), and ``shouldOptimizeForNetworkUse`` does not apply. A timed metadata or subtitle input (a
    /// text track, whose samples FFmpeg 5.1's fragmented muxer cannot end) makes ``startWriting()`` throw
    /// ``AssetWriterError/invalidState(operation:reason:)``. Set before ``startWriting()``.
    public var movieFragmentInterval: MediaTime {
        get { state.withLock { $0.movieFragmentInterval } }
        set { state.withLock { if $0.status == .unknown { $0.movieFragmentInterval = newValue } } }
    }

    /// Container metadata written in the header (AVFoundation's `metadata`), by libavformat's keys: `title`,
    /// `creation_time` (ISO 8601, e.g. `2026-12-04T12:00:00.000000Z`), `location` (ISO 6709, e.g.
    /// `+48.8584+002.2945+035.000/`), `make`, `model`, `software`, `comment`, reverse-DNS keys such as
    /// `com.example.take`, …; AVFoundation's common key identifiers `creationDate`, `copyrights` and `creator` are
    /// written as `creation_time`, `copyright` and `composer`. Each key goes where its container keeps it, by the
    /// rule the export session and the capture movie file output share: MP4 iTunes items and the 3GPP `loci` box,
    /// MOV QuickTime user data (`©xyz` for the location), the movie header's creation time; a key those cannot hold
    /// (`make` in MP4, `software`, a custom key) puts every item in the QuickTime `mdta` key space
    /// (`use_metadata_tags`), where the location is also a `loci` box; Matroska and WebM: every item as a tag.
    /// A `location` (by common key) that is not ISO 6709 text makes ``startWriting()`` throw
    /// ``AssetWriterError/invalidMetadata(key:value:reason:)``. Set before ``startWriting()``.
    public var metadata: [MetadataItem] {
        get { state.withLock { $0.metadata } }
        set { state.withLock { if $0.status == .unknown { $0.metadata = newValue } } }
    }

    /// The session's end time, once ``endSession(atSourceTime:)`` was called.
    var sessionEnd: MediaTime? { state.withLock { $0.sessionEnd } }

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
        if input.mediaType == .metadata {
            // Timed metadata is written as SpliceFFmpeg's TimedMetadataTrack, a text track of MP4 and MOV files.
            guard input.outputSettings == nil else {
                throw AssetWriterError.unsupportedInput(input: "metadata input", reason: "a timed metadata input takes no output settings")
            }
            guard outputURL != nil, outputFileType == .mp4 || outputFileType == .mov else {
                let container = outputURL == nil ? "fragmented MPEG-4 segments" : "a .\(outputFileType.rawValue) file"
                throw AssetWriterError.unsupportedInput(input: "metadata input",
                                                        reason: "\(container) cannot hold a timed metadata track (only .mp4 and .mov files)")
            }
        } else if input.mediaType != .video && input.mediaType != .audio {
            throw AssetWriterError.unsupportedInput(input: "\(input.mediaType.rawValue) input",
                                                    reason: "only video, audio and timed metadata (data) inputs are written")
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
    /// - Throws: ``AssetWriterError/invalidState(operation:reason:)`` when already started, without inputs, or with
    ///   a ``movieFragmentInterval`` the file or its inputs cannot take; ``AssetWriterError/invalidMetadata(key:value:reason:)`` for a ``metadata`` location that is not ISO 6709 or
    ///   an input's ``AssetWriterInput/metadata`` key the container's tracks cannot hold.
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
            let segmentation: WriterJob.Segmentation?
            do throws(AssetWriterError) {
                segmentation = try self.segmentation(of: state)
            } catch {
                state.status = .failed
                state.error = error
                throw error
            }
            do throws(ContainerMetadata.InvalidLocation) {
                try ContainerMetadata.checkLocations(state.metadata)
            } catch {
                let refused = AssetWriterError.invalidMetadata(key: error.key, value: error.value, reason: error.description)
                state.status = .failed
                state.error = refused
                throw refused
            }
            let inputs: [WriterJob.Input]
            do throws(AssetWriterError) {
                inputs = try state.inputs.enumerated().map { index, input throws(AssetWriterError) in
                    if let code = input.languageCode, code.count != 3 || !code.allSatisfy({ ("a"..."z").contains($0) }) {
                        throw .invalidSettings(input: "\(input.mediaType.rawValue) input \(index)",
                                               reason: "language code \"\(code)\" is not an ISO 639-2/T code (three lowercase letters)")
                    }
                    let metadata = input.metadata
                    do throws(ContainerMetadata.UnsupportedTrackKey) {
                        try ContainerMetadata.checkTrackItems(metadata, muxerName: outputFileType.muxerName)
                    } catch {
                        let value = metadata.first { $0.key == error.key }?.value ?? ""
                        throw .invalidMetadata(key: error.key, value: value,
                                               reason: "\(input.mediaType.rawValue) input \(index): \(error.description)")
                    }
                    return WriterJob.Input(mediaType: input.mediaType, settings: input.outputSettings,
                                           transform: input.transform, languageCode: input.languageCode, metadata: metadata)
                }
            } catch {
                state.status = .failed
                state.error = error
                throw error
            }
            var fragmentInterval: MediaTime?
            if state.movieFragmentInterval.isValid {
                let interval = state.movieFragmentInterval
                let problem: String? = if !interval.isNumeric || interval <= .zero { "\(interval) is not a positive time" }
                    else if liveStream != nil { "a live stream is not a file" }
                    else if outputURL == nil { "a segment writer is cut by preferredOutputSegmentInterval" }
                    else if outputFileType != .mp4 && outputFileType != .mov { "a .\(outputFileType.rawValue) file is not fragmented" }
                    else if let text = inputs.firstIndex(where: { $0.mediaType == .metadata || $0.mediaType == .subtitle }) {
                        "\(inputs[text].mediaType.rawValue) input \(text) is written as a text track, whose samples FFmpeg's "
                            + "fragmented movie muxer cannot end (their durations are lost, or the muxer aborts)"
                    } else { nil }
                if let problem {
                    let error = AssetWriterError.invalidState(operation: "start writing", reason: "movieFragmentInterval: \(problem)")
                    state.status = .failed
                    state.error = error
                    throw error
                }
                fragmentInterval = interval
            }
            state.status = .writing
            return WriterJob(url: outputURL, fileType: outputFileType, inputs: inputs,
                             optimizeForNetworkUse: state.shouldOptimizeForNetworkUse, metadata: state.metadata,
                             segmentation: segmentation, fragmentInterval: fragmentInterval,
                             liveStream: liveStreamJob(of: state))
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

    /// Ends the session at `time` (AVFoundation's `endSession(atSourceTime:)`): the tracks end there — the last
    /// picture lasts until `time`, sound appended later is cut at the sample — and appends at or after it are
    /// refused (``AssetWriterError/timeAfterSessionEnd(input:time:sessionEnd:)``). Optional: without it the file
    /// ends with the last sample. Call once, after ``startSession(atSourceTime:)`` and before ``finishWriting()``.
    ///
    /// Unlike AVFoundation, which writes samples past the end and hides them with an edit list, the samples are cut
    /// before they are written, so call it before appending what reaches past `time`: pictures already appended
    /// must be presented before `time`, sound already appended must end by `time`.
    /// - Throws: ``AssetWriterError/invalidState(operation:reason:)`` when the session has not started or already
    ///   ended, `time` is not numeric or is before the session's start, or an input already has a sample reaching
    ///   past it (named, with its time).
    public func endSession(atSourceTime time: MediaTime) throws {
        try state.withLock { state throws(AssetWriterError) in
            guard state.status == .writing, let start = state.sessionStart else {
                throw .invalidState(operation: "end the session", reason: "the session has not started")
            }
            guard state.sessionEnd == nil else {
                throw .invalidState(operation: "end the session", reason: "it already ended at \(state.sessionEnd!)")
            }
            guard time.isNumeric, time >= start else {
                throw .invalidState(operation: "end the session", reason: "\(time) is not a time at or after the session start \(start)")
            }
            for (index, input) in state.inputs.enumerated() {
                guard let latest = input.latestPresentation else { continue }
                let reach = input.mediaType == .video ? latest.time : latest.end
                if input.mediaType == .video ? reach >= time : reach > time {
                    throw .invalidState(operation: "end the session at \(time)",
                                        reason: "\(input.mediaType.rawValue) input \(index) already has a sample \(input.mediaType == .video ? "at" : "reaching") \(reach)")
                }
            }
            state.sessionEnd = time
            channel.post(.endSession(time))
        }
    }

    /// Finishes every input not yet finished, writes the file's trailer and gives the file its name.
    ///
    /// Cancelling the calling task cancels the writer (as ``cancelWriting()``: nothing is left) and throws
    /// `CancellationError`.
    /// - Throws: the ``AssetWriterError`` the writer failed with (also in ``error``; status `failed`);
    ///   ``AssetWriterError/invalidState(operation:reason:)`` when the writer is not writing; `CancellationError`.
    public func finishWriting() async throws {
        guard state.withLock({ $0.status }) == .writing else {
            throw AssetWriterError.invalidState(operation: "finish writing", reason: "the writer is not writing")
        }
        if Task.isCancelled {
            cancelWriting()
            throw CancellationError()
        }
        channel.post(.finish)
        let outcome = await withTaskCancellationHandler {
            await channel.outcome()
        } onCancel: {
            cancelWriting()
        }
        if state.withLock({ $0.status }) == .cancelled {
            // A cancellation that came as the file was being named: it still leaves nothing.
            if case .success = outcome, let outputURL { try? FileManager.default.removeItem(at: outputURL) }
            if Task.isCancelled { throw CancellationError() }
            throw AssetWriterError.invalidState(operation: "finish writing", reason: "writing was cancelled")
        }
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

    /// The most uncompressed pictures that ever waited for the writer's thread at once (bounded by 2).
    package var peakQueuedPictureCount: Int { channel.peakQueuedPictures }

    /// Waits until the thread has ended (after ``cancelWriting()``: the temporary file is gone).
    package func waitUntilEnded() async { _ = await channel.outcome() }
}
