import Composition
import Export
import SpliceFFmpeg

/// One track of an ``AssetWriter``, as AVFoundation's `AVAssetWriterInput`: samples appended in order are encoded
/// per ``outputSettings``, or written as they are when the settings are nil (passthrough: compressed samples from an
/// ``AssetReaderTrackOutput`` with nil settings, remuxed without re-encoding).
///
/// Encoding inputs take decoded samples: pictures (``SampleBuffer/imageBuffer``, or through an
/// ``AssetWriterInputPixelBufferAdaptor``) of the settings' size in any ``PixelBuffer/PixelFormat`` (converted to the
/// encoder's 4:2:0 with BT.709 limited-range tags by libswscale; YUV pictures are read in the matrix and range their
/// ``PixelBuffer/color`` states, BT.709 limited when it states none), or sound (``SampleBuffer/audioBuffer``, resampled and
/// remixed to the settings' rate and channels by libswresample). Presentation times must increase; passthrough
/// inputs take compressed samples whose decode times increase.
public final class AssetWriterInput: Sendable {
    /// Video, audio, or ``MediaType/data`` for timed metadata (appended through an ``AssetWriterInputMetadataAdaptor``).
    public let mediaType: MediaType
    /// The encoding; nil for passthrough.
    public let outputSettings: AssetWriterInputSettings?

    private struct State {
        weak var writer: AssetWriter?
        var index = -1
        var finished = false
        var lastTime: MediaTime?
        /// The latest presentation time, and the latest end (presentation time + duration), appended.
        var latestPresentation: (time: MediaTime, end: MediaTime)?
        var firstPicture: (width: Int, height: Int, format: PixelBuffer.PixelFormat)?
        var firstSound: (rate: Int, channels: Int, format: AudioBuffer.SampleFormat)?
        var codec: String?
        var transform = AffineTransform2D.identity
        var languageCode: String?
        var metadata: [MetadataItem] = []
    }

    private let state = Locked(State())

    /// An input for `mediaType` samples, encoded per `outputSettings` (nil: passthrough).
    public init(mediaType: MediaType, outputSettings: AssetWriterInputSettings?) {
        self.mediaType = mediaType
        self.outputSettings = outputSettings
    }

    /// How the video is to be shown (AVFoundation's `transform`): written as the track's display matrix (`tkhd`),
    /// which players apply — e.g. `AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: height, ty: 0)` for a picture
    /// stored sideways to be turned a quarter clockwise (an iPhone portrait clip's). MP4/MOV only (Matroska and WebM
    /// keep no display matrix); the identity by default. Set before ``AssetWriter/startWriting()``.
    public var transform: AffineTransform2D {
        get { state.withLock { $0.transform } }
        set { state.withLock { $0.transform = newValue } }
    }

    /// The track's language as an ISO 639-2/T code, e.g. `eng`, `fra` (AVFoundation's `languageCode`), written as the
    /// stream's `language` (MP4/MOV `mdhd`, Matroska `Language`); nil leaves it undetermined. Checked by
    /// ``AssetWriter/startWriting()`` (three lowercase letters). Set before ``AssetWriter/startWriting()``.
    public var languageCode: String? {
        get { state.withLock { $0.languageCode } }
        set { state.withLock { $0.languageCode = newValue } }
    }

    /// The track's metadata items (AVFoundation's `AVAssetWriterInput.metadata`), written as the stream's tags by
    /// libavformat's keys: in MP4 and MOV `title` (the track's user data `name`), `handler_name` (the `hdlr` box's
    /// name) and `language` (``languageCode`` wins when both are set) — FFmpeg's `mov` muxer writes no other track
    /// key, so any other makes ``AssetWriter/startWriting()`` throw ``AssetWriterError/invalidMetadata(key:value:reason:)``;
    /// in Matroska and WebM every item, as a tag. Read back by ``AssetTrack/metadata``. Set before
    /// ``AssetWriter/startWriting()``.
    public var metadata: [MetadataItem] {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }

    /// The latest presentation time and presentation end appended so far (nil before the first sample).
    var latestPresentation: (time: MediaTime, end: MediaTime)? { state.withLock { $0.latestPresentation } }

    /// "video input 0", for messages.
    var name: String { "\(mediaType.rawValue) input \(state.withLock { $0.index })" }

    func attach(to writer: AssetWriter, index: Int) throws {
        let name = "\(mediaType.rawValue) input \(index)"
        switch outputSettings {
        case .video(let video)?:
            guard mediaType == .video else {
                throw AssetWriterError.invalidSettings(input: name, reason: "video settings on a \(mediaType.rawValue) input")
            }
            guard video.size.width > 0, video.size.height > 0, video.size.width % 2 == 0, video.size.height % 2 == 0 else {
                throw AssetWriterError.invalidSettings(input: name, reason: "size \(video.size.width)×\(video.size.height) pixels must be positive and even (4:2:0)")
            }
            guard video.frameDuration.isNumeric, video.frameDuration > .zero, video.timeScale > 0 else {
                throw AssetWriterError.invalidSettings(input: name, reason: "the frame duration and time scale must be positive")
            }
            if video.profile != nil || video.level != nil, video.encoding.codec != .h264, video.encoding.codec != .hevc {
                throw AssetWriterError.invalidSettings(input: name, reason: "a profile or level is set for H.264 or HEVC, not \(video.encoding.codec.rawValue)")
            }
        case .audio(let audio)?:
            guard mediaType == .audio else {
                throw AssetWriterError.invalidSettings(input: name, reason: "audio settings on a \(mediaType.rawValue) input")
            }
            guard (1...2).contains(audio.channelCount), (1...384_000).contains(audio.sampleRate) else {
                throw AssetWriterError.invalidSettings(input: name, reason: "\(audio.channelCount) channels at \(audio.sampleRate) Hz: 1 or 2 channels at 1 ... 384000 Hz")
            }
        case nil:
            break
        }
        state.withLock {
            $0.writer = writer
            $0.index = index
        }
    }

    /// True while an append would not wait: the writer is writing, the input is not finished and the writer's queue
    /// has room (AVFoundation's `isReadyForMoreMediaData`).
    public var isReadyForMoreMediaData: Bool {
        let (writer, finished) = state.withLock { ($0.writer, $0.finished) }
        guard let writer, !finished else { return false }
        return writer.isWriting && writer.channel.hasRoom
    }

    /// Appends `sample`, suspending while the writer's queue is full (the encoder is behind).
    /// - Throws: ``AssetWriterError/appendBeforeSessionStart(input:)``,
    ///   ``AssetWriterError/appendAfterMarkAsFinished(input:)``, ``AssetWriterError/nonIncreasingTime(input:previous:appended:)``,
    ///   ``AssetWriterError/timeBeforeSessionStart(input:time:sessionStart:)``,
    ///   ``AssetWriterError/pictureMismatch(input:expected:appended:)``, ``AssetWriterError/sampleMismatch(input:reason:)``
    ///   — the sample is then not appended and the writer goes on; the writer's own failure, once it has failed;
    ///   ``AssetWriterError/invalidState(operation:reason:)`` when the writer is not writing; `CancellationError`
    ///   when the calling task is cancelled (checked before the sample is queued; the writer goes on, and a writer
    ///   dropped unfinished is cancelled, leaving nothing); ``AssetReaderError/sampleDataNoLongerValid(output:)``
    ///   for a picture a reader lent out without a copy and has taken back. A lent picture that is still valid is
    ///   copied here, so the reader may move on as soon as this returns.
    public func append(_ sample: SampleBuffer) async throws {
        try Task.checkCancellation()
        var sample = sample
        try sample.imageBuffer?.ownBytes()
        let (writer, index) = try validate(sample)
        guard await writer.channel.send(.sample(input: index, sample)) else {
            if let failure = writer.channel.failure { throw failure }
            throw AssetWriterError.invalidState(operation: "append", reason: "the writer has stopped (\(writer.status))")
        }
    }

    /// Checks `sample` against the input's state and records its time and format.
    private func validate(_ sample: SampleBuffer) throws -> (AssetWriter, Int) {
        let name = self.name
        guard let writer = state.withLock({ $0.writer }) else {
            throw AssetWriterError.invalidState(operation: "append", reason: "\(name) was not added to a writer")
        }
        if let failure = writer.channel.failure { throw failure }
        guard writer.isWriting else {
            throw AssetWriterError.invalidState(operation: "append", reason: "the writer is not writing (\(writer.status))")
        }
        guard let sessionStart = writer.sessionStart else { throw AssetWriterError.appendBeforeSessionStart(input: name) }
        return try state.withLock { state in
            guard !state.finished else { throw AssetWriterError.appendAfterMarkAsFinished(input: name) }
            let time: MediaTime
            switch outputSettings {
            case nil where mediaType == .metadata:
                guard let group = sample.timedMetadataGroup else {
                    throw AssetWriterError.sampleMismatch(input: name, reason: "a timed metadata input takes timed metadata groups (an AssetWriterInputMetadataAdaptor's)")
                }
                guard group.timeRange.start.isNumeric, group.timeRange.duration.isNumeric, group.timeRange.duration > .zero else {
                    throw AssetWriterError.sampleMismatch(input: name, reason: "a timed metadata group's range \(group.timeRange) is not a numeric range of positive duration")
                }
                time = group.timeRange.start
            case nil:
                guard let data = sample.dataBuffer, sample.formatDescription.codecParameters != nil, !data.isEmpty else {
                    throw AssetWriterError.sampleMismatch(input: name, reason: "a passthrough input takes compressed samples (from a reader output with nil settings)")
                }
                guard sample.formatDescription.mediaType == mediaType else {
                    throw AssetWriterError.sampleMismatch(input: name, reason: "a \(sample.formatDescription.mediaType.rawValue) sample on a \(mediaType.rawValue) input")
                }
                if let codec = state.codec, codec != sample.formatDescription.codecName {
                    throw AssetWriterError.sampleMismatch(input: name, reason: "a \(sample.formatDescription.codecName) sample after \(codec) samples")
                }
                time = sample.decodeTime
            case .video(let settings)?:
                guard let picture = sample.imageBuffer else {
                    throw AssetWriterError.sampleMismatch(input: name, reason: "a video input with settings takes pictures")
                }
                let first = state.firstPicture ?? (settings.size.width, settings.size.height, picture.pixelFormat)
                guard picture.width == first.width, picture.height == first.height, picture.pixelFormat == first.format else {
                    throw AssetWriterError.pictureMismatch(
                        input: name, expected: "\(first.width)×\(first.height) \(first.format.rawValue)", appended: picture.summary)
                }
                try Self.checkPlanes(of: picture, input: name)
                time = sample.presentationTime
            case .audio?:
                guard let sound = sample.audioBuffer else {
                    throw AssetWriterError.sampleMismatch(input: name, reason: "an audio input with settings takes sound")
                }
                let first = state.firstSound ?? (sound.sampleRate, sound.channelCount, sound.sampleFormat)
                guard sound.sampleRate == first.rate, sound.channelCount == first.channels, sound.sampleFormat == first.format,
                      sound.sampleRate > 0, sound.channelCount > 0, sound.frameCount > 0 else {
                    throw AssetWriterError.sampleMismatch(
                        input: name, reason: "sound of \(sound.channelCount) channels of \(sound.sampleFormat.rawValue) at \(sound.sampleRate) Hz "
                            + "(\(sound.frameCount) samples) after \(first.channels) channels of \(first.format.rawValue) at \(first.rate) Hz")
                }
                time = sample.presentationTime
            }
            guard time.isNumeric else {
                throw AssetWriterError.sampleMismatch(input: name, reason: "the sample's time is not numeric")
            }
            if outputSettings != nil, sample.presentationTime < sessionStart {
                throw AssetWriterError.timeBeforeSessionStart(input: name, time: sample.presentationTime, sessionStart: sessionStart)
            }
            if let end = writer.sessionEnd, sample.presentationTime >= end {
                throw AssetWriterError.timeAfterSessionEnd(input: name, time: sample.presentationTime, sessionEnd: end)
            }
            if let previous = state.lastTime, time <= previous {
                throw AssetWriterError.nonIncreasingTime(input: name, previous: previous, appended: time)
            }
            // Accepted: only now does the sample pin the input's format and time.
            state.lastTime = time
            let end = sample.duration.isNumeric ? sample.presentationTime + sample.duration : sample.presentationTime
            if let latest = state.latestPresentation {
                state.latestPresentation = (max(latest.time, sample.presentationTime), max(latest.end, end))
            } else {
                state.latestPresentation = (sample.presentationTime, end)
            }
            switch outputSettings {
            case nil: state.codec = sample.formatDescription.codecName
            case .video?:
                if state.firstPicture == nil, let picture = sample.imageBuffer {
                    state.firstPicture = (picture.width, picture.height, picture.pixelFormat)
                }
            case .audio?:
                if state.firstSound == nil, let sound = sample.audioBuffer {
                    state.firstSound = (sound.sampleRate, sound.channelCount, sound.sampleFormat)
                }
            }
            return (writer, state.index)
        }
    }

    /// Checks that every plane holds the rows and bytes its format needs.
    private static func checkPlanes(of picture: PixelBuffer, input: String) throws {
        let shapes = picture.pixelFormat.planeShapes(width: picture.width, height: picture.height)
        guard picture.planes.count == shapes.count, zip(picture.planes, shapes).allSatisfy({ plane, shape in
            plane.bytesPerRow >= shape.rowBytes && plane.rows >= shape.rows && plane.byteCount >= plane.bytesPerRow * (shape.rows - 1) + shape.rowBytes
        }) else {
            throw AssetWriterError.pictureMismatch(input: input, expected: "\(shapes.count) planes of \(shapes.map { "\($0.rowBytes)×\($0.rows)" }.joined(separator: ", ")) bytes",
                                                   appended: "\(picture.planes.count) planes of \(picture.planes.map { "\($0.bytesPerRow)×\($0.rows)" }.joined(separator: ", ")) bytes")
        }
    }

    /// No more samples will be appended: the encoder is drained (AVFoundation's `markAsFinished`). Appends after
    /// this throw ``AssetWriterError/appendAfterMarkAsFinished(input:)``.
    public func markAsFinished() {
        let (writer, index, already) = state.withLock { state -> (AssetWriter?, Int, Bool) in
            defer { state.finished = true }
            return (state.writer, state.index, state.finished)
        }
        guard !already, let writer else { return }
        writer.channel.post(.finishInput(index))
    }
}
