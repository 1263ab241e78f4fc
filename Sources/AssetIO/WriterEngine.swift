import Foundation
import Composition
import Export
import SpliceFFmpeg
internal import CMedia
#if canImport(Glibc)
import Glibc
#endif

/// A writer's thread: the ``TemporaryOutputFile``, the ``EncodingMuxer`` (its ``OutputFile`` and encoders), and per
/// encoding input a ``FilterGraph`` converting appended pictures or sound to the encoder's format. For segment
/// output there is no file: the muxer writes through a ``FragmentedMP4Segmenter`` whose segments go to the delegate. Confined to the
/// thread; every FFmpeg object is freed by its owner's `deinit` when the thread ends.
///
/// The file's header needs every track's description, so samples wait (in order) until every input has appended
/// its first sample or been marked finished; then the streams are added in input order and the waiting samples
/// written.
final class WriterEngine {
    private let job: WriterJob
    private let temporary: TemporaryOutputFile?
    private let muxer: EncodingMuxer
    private var sessionStart: MediaTime = .zero
    private var sessionEnd: MediaTime?
    /// The file time at which the next movie fragment is written (fragmented files only).
    private var nextFragment: MediaTime?
    private var pending: [(input: Int, sample: SampleBuffer)] = []
    private var firstSamples: [Int: SampleBuffer] = [:]
    private var finishedInputs: Set<Int> = []
    private var tracks: [Int: TrackWriter] = [:]
    private var headerWritten = false
    /// A live stream's sender (from the header on), and how it ended: nil while it runs.
    private var sender: LiveStreamSender?
    private let streamEnd = Locked<Result<Void, LiveStreamSender.Failure>?>(nil)

    deinit {
        // A writer that failed or was cancelled still ends its stream: queued packets, then the trailer.
        sender?.finish()
    }

    /// Runs the writer's command loop until it finishes, fails or is cancelled, and closes `channel` with the
    /// outcome.
    static func run(job: WriterJob, channel: WriterChannel, cancellation: CancellationFlag) {
        let temporary = job.fragmentInterval == nil ? job.url.map { TemporaryOutputFile(for: $0) } : nil
        // A fragmented file is written under its own name; the writer removes it unless it finishes.
        let direct = job.fragmentInterval == nil ? nil : job.url
        if let direct {
            // Created exclusively: a file that appeared since the writer was made is neither overwritten nor removed.
            let descriptor = open(direct.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            guard descriptor >= 0 else {
                channel.close(.failure(.outputFileExists(direct)))
                return
            }
            close(descriptor)
        }
        // Before the outcome is announced: whoever waits for it finds nothing left.
        func discardOutput() {
            temporary?.discard()
            if let direct { try? FileManager.default.removeItem(at: direct) }
        }
        do {
            let engine: WriterEngine
            do {
                engine = try WriterEngine(job: job, temporary: temporary, cancellation: cancellation)
            } catch {
                throw job.failure("opening the \(job.url == nil ? "segmenter" : "file"): \(error)")
            }
            while true {
                switch channel.receive() {
                case .startSession(let time):
                    // Segments: the session's start lands at the initial segment start time.
                    engine.sessionStart = time - (job.segmentation?.initialStart ?? .zero)
                case .endSession(let time):
                    engine.sessionEnd = time
                    for track in engine.tracks.values { track.sessionEnd = time }
                case .sample(let input, let sample): try engine.append(sample, to: input)
                case .finishInput(let input): try engine.finishInput(input)
                case .cancel:
                    discardOutput()
                    channel.close(.failure(.invalidState(operation: "write", reason: "writing was cancelled")))
                    return
                case .finish:
                    try engine.finish()
                    channel.close(.success(()))
                    return
                }
            }
        } catch {
            discardOutput()
            if cancellation.isCancelled {
                channel.close(.failure(.invalidState(operation: "write", reason: "writing was cancelled")))
            } else {
                channel.close(.failure(error as? AssetWriterError ?? job.failure(FailureReason.words(for: error))))
            }
        }
    }

    private init(job: WriterJob, temporary: TemporaryOutputFile?, cancellation: CancellationFlag) throws {
        self.job = job
        self.temporary = temporary
        if job.liveStream != nil {
            muxer = try EncodingMuxer.discardingOutput()
        } else if let segmentation = job.segmentation {
            let inputs = job.inputs
            let segmenter = try FragmentedMP4Segmenter(profile: segmentation.profile, initialStart: segmentation.initialStart,
                                                       interval: segmentation.interval) { segment in
                try Self.deliver(segment, to: segmentation, inputs: inputs)
            }
            muxer = try EncodingMuxer(segmenter: segmenter)
        } else if let temporary {
            muxer = try EncodingMuxer(path: temporary.path, formatName: job.fileType.muxerName, cancellation: cancellation)
        } else if let url = job.url, let interval = job.fragmentInterval {
            muxer = try EncodingMuxer(path: url.path, formatName: job.fileType.muxerName, cancellation: cancellation)
            nextFragment = interval
        } else {
            throw AssetWriterError.invalidState(operation: "write", reason: "neither a file nor segments to write")
        }
    }

    /// Hands one segment to the delegate, with its report. Every input has one stream, added in input order, so a
    /// stream's index is its input's.
    private static func deliver(_ segment: FragmentedMP4Segmenter.Segment, to segmentation: WriterJob.Segmentation,
                                inputs: [WriterJob.Input]) throws {
        guard let writer = segmentation.writer else { return }
        let report: AssetSegmentReport?
        switch segment.kind {
        case .initialization: report = nil
        case .media:
            report = AssetSegmentReport(segmentType: .separable, sequenceNumber: segment.sequenceNumber, trackReports: segment.tracks.map { track in
                AssetSegmentTrackReport(trackID: Int32(track.stream + 1), mediaType: inputs[track.stream].mediaType,
                                        earliestPresentationTimeStamp: track.earliestPresentationTime, duration: track.duration,
                                        sampleCount: track.sampleCount, firstSampleIsSyncSample: track.startsWithKeyFrame)
            })
        }
        do {
            try segmentation.delegate.assetWriter(writer, didOutputSegmentData: Data(segment.bytes),
                                                  segmentType: report == nil ? .initialization : .separable, segmentReport: report)
        } catch {
            let name = report.map { "media segment \($0.sequenceNumber)" } ?? "the initialization segment"
            throw AssetWriterError.segmentOutputFailed(reason: "the delegate failed on \(name): \(error)")
        }
    }

    private func fail(_ error: Error, _ doing: String) -> AssetWriterError {
        if let error = error as? AssetWriterError { return error }
        if let failure = error as? EncodingMuxer.Failure {
            switch failure {
            case .encoding(let error): return job.failure("\(doing): encoding: \(error)")
            case .writing(let error): return job.failure("\(doing): writing: \(error)")
            }
        }
        return job.failure("\(doing): \(error)")
    }

    private func append(_ sample: SampleBuffer, to input: Int) throws {
        if headerWritten {
            try write(sample, to: input)
            return
        }
        if firstSamples[input] == nil { firstSamples[input] = sample }
        pending.append((input, sample))
        try writeHeaderWhenReady()
    }

    private func finishInput(_ input: Int) throws {
        finishedInputs.insert(input)
        if headerWritten {
            try tracks[input]?.finish(muxer: muxer)
        } else {
            try writeHeaderWhenReady()
        }
    }

    /// Adds the streams and writes the header once every input has a first sample or is finished; then writes the
    /// samples that waited.
    private func writeHeaderWhenReady(force: Bool = false) throws {
        guard !headerWritten else { return }
        guard force || job.inputs.indices.allSatisfy({ firstSamples[$0] != nil || finishedInputs.contains($0) }) else { return }
        for (index, input) in job.inputs.enumerated() {
            let name = "\(input.mediaType.rawValue) input \(index)"
            do {
                tracks[index] = try TrackWriter(input: input, name: name, first: firstSamples[index], fileType: job.fileType,
                                                muxer: muxer, sessionStart: sessionStart,
                                                keyFrames: job.segmentation.map {
                                                    SegmentKeyFrameSchedule(initialStart: $0.initialStart, interval: $0.interval)
                                                })
                tracks[index]?.sessionEnd = sessionEnd
            } catch {
                throw fail(error, "adding the track of \(name)")
            }
        }
        do {
            let metadataKeySpace = try describeTracks()
            // Edit lists exact to the sample (sound starting after the pictures), as an export's.
            let options: [String: String] = if job.segmentation != nil { [:] }
                else if job.fragmentInterval != nil { muxer.output.delayedMovieBoxFragmentOptions(metadataKeySpace: metadataKeySpace) }
                else {
                    job.fileType.muxerOptions(optimizeForNetworkUse: job.optimizeForNetworkUse,
                                              movieTimescale: muxer.output.firstAudioSampleRate, metadataKeySpace: metadataKeySpace)
                }
            try muxer.writeHeader(options: options)
        } catch {
            throw fail(error, "writing the header")
        }
        if let stream = job.liveStream {
            // The encoders' packets go to the sender, which connects now on its own thread.
            var settings = stream.settings
            settings.waitsWhenFull = true
            let end = streamEnd
            let sender = LiveStreamSender(destination: stream.destination, source: muxer.streamDescriptions,
                                          settings: settings) { event in
                switch event {
                case .finished: end.withLock { $0 = .success(()) }
                case .failed(let failure): end.withLock { $0 = .failure(failure) }
                case .streaming, .reconnecting, .dropped: break
                }
            }
            muxer.mirror(to: sender)
            self.sender = sender
        }
        headerWritten = true
        let waiting = pending
        pending = []
        for (input, sample) in waiting { try write(sample, to: input) }
        for input in finishedInputs.sorted() { try tracks[input]?.finish(muxer: muxer) }
    }

    /// The container's metadata (by SpliceFFmpeg's `ContainerMetadata` rule), each video track's display matrix and
    /// each track's metadata and language, before the header.
    /// - Returns: whether the header needs the QuickTime `mdta` key space for the metadata.
    private func describeTracks() throws -> Bool {
        let metadataKeySpace = muxer.output.setContainerMetadata(job.metadata)
        for (index, input) in job.inputs.enumerated() {
            guard let track = tracks[index] else { continue }
            if input.mediaType == .video, input.transform != .identity, job.fileType != .mkv, job.fileType != .webm {
                try muxer.output.setDisplayMatrix(Self.displayMatrix(of: input.transform), onStream: track.stream)
            }
            // A timed metadata track keeps its handler name: it is what marks the track as one.
            var items = input.metadata.filter {
                ($0.key != "language" || input.languageCode == nil) && (input.mediaType != .metadata || $0.key != "handler_name")
            }
            if let code = input.languageCode { items.append(MetadataItem(key: "language", value: code)) }
            muxer.output.setTrackMetadata(items, onStream: track.stream)
        }
        return metadataKeySpace
    }

    /// FFmpeg's display matrix for `transform`: `[a b 0; c d 0; tx ty 1]`, a b c d tx ty in 16.16 fixed point and
    /// the last column in 2.30 (the QuickTime `tkhd` layout, the same meaning as the transform's).
    static func displayMatrix(of transform: AffineTransform2D) -> [Int32] {
        func fixed(_ value: Double) -> Int32 { Int32(clamping: Int64((value * 65536).rounded())) }
        return [fixed(transform.a), fixed(transform.b), 0, fixed(transform.c), fixed(transform.d), 0,
                fixed(transform.tx), fixed(transform.ty), 1 << 30]
    }

    /// Throws the live stream's failure once its sender ended on one.
    private func checkStream() throws {
        guard case .failure(let failure)? = streamEnd.withLock({ $0 }) else { return }
        switch failure {
        case .connectionFailed(let reason): throw job.failure("could not connect: \(reason)")
        case .connectionLost(let reason): throw job.failure("the connection was lost: \(reason)")
        }
    }

    private func write(_ sample: SampleBuffer, to input: Int) throws {
        try checkStream()
        guard let track = tracks[input] else { return }
        do {
            try track.append(sample, muxer: muxer)
            if let next = nextFragment, let interval = job.fragmentInterval, sample.presentationTime - sessionStart >= next,
               try writeFragment() {
                var following = next + interval
                while following <= sample.presentationTime - sessionStart { following = following + interval }
                nextFragment = following
            }
        } catch {
            throw fail(error, "writing a sample of \(track.name) at \(sample.presentationTime.secondsText)")
        }
    }

    /// Ends the current movie fragment of a fragmented file, the `moov` before the first
    /// (``OutputFile/writeMovieFragment(waitingFor:)``), which waits until every track not yet finished has a
    /// packet in the muxer.
    /// - Returns: whether the fragment was written.
    /// - Throws: ``FFmpegError`` from the muxer.
    private func writeFragment() throws -> Bool {
        try muxer.output.writeMovieFragment(waitingFor: tracks.filter { !finishedInputs.contains($0.key) }.map(\.value.stream))
    }

    private func finish() throws {
        try writeHeaderWhenReady(force: true)
        for index in job.inputs.indices where !finishedInputs.contains(index) {
            finishedInputs.insert(index)
            try tracks[index]?.finish(muxer: muxer)
        }
        do {
            try muxer.finish()
        } catch {
            throw fail(error, "writing the trailer")
        }
        if let sender {
            // The queued packets and the trailer go out on the sender's thread; its end is the writer's.
            muxer.stopMirroring(to: sender)
            sender.finish()
            while streamEnd.withLock({ $0 }) == nil { usleep(10_000) }
            try checkStream()
        }
        guard let temporary, let url = job.url else { return }
        do {
            try temporary.commit(to: url, replacing: false)
        } catch {
            throw AssetWriterError.writeFailed(url, reason: FailureReason.words(for: error))
        }
    }
}
