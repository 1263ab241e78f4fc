import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Runs one export synchronously on the calling thread (a dedicated worker thread, never the cooperative pool):
/// takes video frames (rendered ahead on a ``VideoRenderThread``) and audio chunks in presentation order, encodes
/// them, and muxes them into `path`. Owns the encoders and the output file, and stops the render thread before it
/// returns; every FFmpeg object of the export is freed when it returns or throws.
final class ExportWriter {
    private let plan: ExportPlan
    /// Where to write (a temporary file; ``ExportJob`` names it on success).
    private let path: String
    private let cancellation: CancellationFlag
    private let progress: (Double) -> Void
    private var muxer: EncodingMuxer!
    private var outputFile: OutputFile { muxer.output }
    private var videoEncoder: Encoder?
    private var audioEncoder: Encoder?
    private var videoStream = -1
    private var audioStream = -1
    private var limitReached = false

    init(plan: ExportPlan, path: String, cancellation: CancellationFlag, progress: @escaping (Double) -> Void) {
        self.plan = plan
        self.path = path
        self.cancellation = cancellation
        self.progress = progress
    }

    /// Renders the whole plan. Returns true when the file length limit stopped the export early (the file is
    /// complete and playable, but shorter).
    func run() throws -> Bool {
        do {
            muxer = try EncodingMuxer(path: path, formatName: plan.fileType.muxerName, cancellation: cancellation)
        } catch let error as FFmpegError {
            throw ExportError.openingOutput(error, for: URL(fileURLWithPath: path))
        }
        if let videoPlan = plan.video, let settings = plan.settings.video { try openVideoEncoder(videoPlan, settings) }
        if let audioPlan = plan.audio, let settings = plan.settings.audio { try openAudioEncoder(audioPlan, settings) }
        guard videoEncoder != nil || audioEncoder != nil else {
            throw ExportError.invalidComposition("nothing to export: no video and no audio track")
        }
        if !plan.subtitles.isEmpty {
            subtitles = try SubtitleWriter(plans: plan.subtitles, muxer: muxer, cancellation: cancellation)
        }
        let metadata = try CarriedMetadata.items(plan.metadata, carriedFrom: plan.sourceMetadataURL, cancellation: cancellation)
        let metadataKeySpace = outputFile.setContainerMetadata(metadata)
        if videoStream >= 0 { outputFile.setTrackMetadata(plan.videoStreamMetadata, onStream: videoStream) }
        if audioStream >= 0 { outputFile.setTrackMetadata(plan.audioStreamMetadata, onStream: audioStream) }
        let timedMetadata = try writing { try TimedMetadataWriter(plan: plan.timedMetadata, output: outputFile, cancellation: cancellation) }
        try writing { try outputFile.addChapters(plan.chapters, cancellation: cancellation) }
        let movieTimescale: Int32? = if let audio = plan.audio, audioEncoder != nil {
            Int32(audio.format.sampleRate)
        } else if videoEncoder != nil {
            encoderClock.timeBase.den
        } else {
            nil
        }
        let muxerOptions = plan.fileType.muxerOptions(
            optimizeForNetworkUse: plan.optimizeForNetworkUse, movieFragmentInterval: plan.movieFragmentInterval,
            hasVideo: videoEncoder != nil, movieTimescale: movieTimescale, metadataKeySpace: metadataKeySpace)
        try writing { try outputFile.writeHeader(options: muxerOptions) }
        try writing { try timedMetadata.write() }

        // Pictures are decoded and composited on a thread of their own, ahead of the encoder; audio is mixed here.
        var videoPlan = videoEncoder == nil ? nil : plan.video
        // Burnt-in subtitles: the track's placed cues written as an ASS file for the render thread's `ass` filter.
        let burnInFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("splice-subtitles-\(UUID().uuidString).ass").path
        defer { unlink(burnInFile) }
        if let burnIn = videoPlan?.subtitleBurnIn,
           try SubtitleWriter.writeFile(burnIn, to: burnInFile, cancellation: cancellation) {
            videoPlan?.subtitleBurnInFile = burnInFile
        }
        let video = videoPlan.map {
            VideoRenderThread(plan: $0, capacity: VideoRenderThread.capacityBesideEncoder,
                              decoderThreads: VideoRenderThread.decoderThreadsBesideEncoder,
                              cancellation: cancellation)
        }
        defer { video?.stop() }
        let mixer = try plan.audio.flatMap { plan in audioEncoder == nil ? nil : try AudioMixer(plan: plan, frameSize: audioFrameSize, cancellation: cancellation) }
        let frameCount = videoPlan?.frameCount ?? 0
        let totalSamples = mixer?.plan.sampleCount ?? 0
        let audioRate = Int64(plan.audio?.format.sampleRate ?? 48_000)
        var nextFrame = 0
        var videoEnded = video == nil
        var lastProgress = -1.0

        // Interleave by presentation time: always encode whichever stream is behind.
        while !limitReached {
            if cancellation.isCancelled { throw CancellationError() }
            let audioDone = mixer.map { $0.position >= totalSamples } ?? true
            if videoEnded && audioDone { break }
            let videoTime = videoPlan.map { $0.time(ofFrame: nextFrame) } ?? .positiveInfinity
            let audioTime = mixer.map { MediaTime(value: $0.position, timescale: Int32(audioRate)) } ?? .positiveInfinity
            try writeSubtitles(through: min(videoTime, audioTime))
            if !videoEnded && (audioDone || videoTime <= audioTime), let video {
                if let frame = try video.next() {
                    try encodeVideo(frame)
                    video.recycle(frame)
                    nextFrame += 1
                } else {
                    videoEnded = true
                }
            } else if let mixer {
                try mixer.renderChunk { try encodeAudio($0) }
            }
            let done = frameCount > 0 ? Double(nextFrame) / Double(frameCount)
                : Double(mixer?.position ?? 0) / Double(max(totalSamples, 1))
            if done - lastProgress >= 0.001 {
                lastProgress = done
                progress(ExportProgress.rendering(min(done, 1)))
            }
        }
        video?.stop()
        if videoEncoder != nil { try encode(nil, stream: videoStream) }
        if audioEncoder != nil {
            if !limitReached { try audioConverter?.flush { try encode($0, stream: audioStream) } }
            try encode(nil, stream: audioStream)
        }
        if !limitReached { try writeSubtitles(through: .positiveInfinity) }
        progress(ExportProgress.flushed)
        try writing { try outputFile.finish() }
        progress(ExportProgress.finished)
        return limitReached
    }

    // MARK: Encoders

    private func openVideoEncoder(_ video: VideoPlan, _ settings: VideoSettings) throws {
        guard plan.fileType.supportsVideo else { return }
        let clock = EncoderClock(video, segmentedExportDuration: plan.segmentedExportDuration)
        encoderClock = clock
        let configuration = if let source = plan.smartRenderPiece {
            settings.encoderConfiguration(for: video, clock: clock, fileType: plan.fileType, joining: source)
        } else {
            settings.encoderConfiguration(
                for: video, clock: clock, fileType: plan.fileType, segmentPart: plan.segmentedExportDuration != nil,
                movieFragmentInterval: plan.movieFragmentInterval)
        }
        let (encoder, stream) = try addEncoder(configuration, settingsDescription: "the settings \(configuration.options)")
        videoStream = stream
        videoEncoder = encoder
    }

    /// Creates the encoder `configuration` describes and adds its stream to the file.
    /// - Throws: ``ExportError/encoderUnavailable(_:)`` when the linked FFmpeg lacks it;
    ///   ``ExportError/unsupportedSettings(_:)`` naming `settingsDescription` when it refuses to open.
    private func addEncoder(_ configuration: EncoderConfiguration, settingsDescription: String) throws -> (Encoder, Int) {
        let encoder: Encoder
        do {
            encoder = try Encoder(configuration: configuration)
        } catch {
            throw ExportError.encoderUnavailable(configuration.encoderName)
        }
        do {
            return (encoder, try muxer.addStream(encoder))
        } catch {
            throw ExportError.unsupportedSettings(
                "the \(configuration.encoderName) encoder rejected \(settingsDescription): \(error)")
        }
    }

    private var audioFrameSize = 1024
    private var encoderClock = EncoderClock.unset

    private func openAudioEncoder(_ audio: AudioPlan, _ settings: AudioSettings) throws {
        let (encoder, stream) = try addEncoder(settings.encoderConfiguration(for: audio.format), settingsDescription: "\(settings)")
        audioStream = stream
        audioFrameSize = encoder.frameSize > 0 ? encoder.frameSize : 1024
        if encoder.sampleFormat != AV_SAMPLE_FMT_FLTP || audio.truePeakLimit != nil {
            audioConverter = try SampleFormatConverter(format: audio.format, to: encoder.sampleFormat,
                                                       truePeakLimit: audio.truePeakLimit, frameSize: audioFrameSize)
        }
        audioEncoder = encoder
    }

    private func encodeVideo(_ frame: Frame) throws {
        guard videoEncoder != nil, !limitReached else { return }
        frame.pts = encoderClock.pts(ofFrame: frame.pts)
        frame.resetPictureType()
        try encode(frame, stream: videoStream)
    }

    private func encodeAudio(_ frame: Frame) throws {
        guard audioEncoder != nil, !limitReached else { return }
        guard let converter = audioConverter else {
            try encode(frame, stream: audioStream)
            return
        }
        try converter.convert(frame) { try encode($0, stream: audioStream) }
    }

    /// Converts the mixer's planar float to the encoder's sample format (PCM: s16, Opus: interleaved float), by
    /// `aformat`, after the true-peak limiter when the plan has one; nil when the encoder takes planar float (AAC)
    /// and there is no limiter.
    private var audioConverter: SampleFormatConverter?

    /// Encodes `frame` (nil: flushes) on `stream` and writes what the encoder gives; then notes whether the file
    /// length limit is near.
    private func encode(_ frame: Frame?, stream: Int) throws {
        let isVideo = stream == videoStream
        let clock = encoderClock
        do {
            try muxer.encode(frame, stream: stream) { packet in
                // libx264 leaves durations 0. Every frame lasts one frame duration, except the last, which ends
                // exactly at the composition's end, so the video track's duration is the composition's.
                if isVideo, let pts = packet.presentationTimestamp { packet.duration = clock.duration(ofFrameAt: pts) }
            }
        } catch EncodingMuxer.Failure.encoding(let error) {
            let name = (isVideo ? videoEncoder : audioEncoder)?.codecName ?? "the encoder"
            throw ExportError.renderingFailed(stage: "encoding with \(name)", reason: "\(error)")
        } catch EncodingMuxer.Failure.writing(let error) {
            try writing { throw error }
        }
        if let limit = plan.fileLengthLimit, outputFile.bytesWritten >= limit - reserve(for: limit) {
            limitReached = true
        }
    }

    /// The subtitle tracks' writer, when the plan has any.
    private var subtitles: SubtitleWriter?

    /// Writes the cues that start at or before `time` (export time).
    private func writeSubtitles(through time: MediaTime) throws {
        try subtitles?.write(through: time, into: URL(fileURLWithPath: path), cancellation: cancellation)
    }

    /// Bytes kept free under a file length limit for what is still buffered in the encoders and the index.
    private func reserve(for limit: Int64) -> Int64 { max(limit / 10, 64 * 1024) }

    /// Runs a write, mapping FFmpeg's failure to a typed error naming the file (disk full, cancelled, …).
    private func writing<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw ExportError.writing(error, to: URL(fileURLWithPath: path), cancelled: cancellation.isCancelled)
        }
    }
}

/// The video encoder's clock: a time base fine enough to express both the frame duration and the composition's
/// duration exactly (their timescales' least common multiple, when it fits), so the last frame can be shortened to
/// end exactly at the composition's end. Otherwise the frame duration itself (the last frame then ends up to one
/// frame late).
struct EncoderClock {
    var timeBase: AVRational
    var ticksPerFrame: Int64
    var lastFramePTS: Int64
    var lastFrameDuration: Int64

    static let unset = EncoderClock(timeBase: AVRational(num: 1, den: 1), ticksPerFrame: 1, lastFramePTS: -1, lastFrameDuration: 1)

    init(timeBase: AVRational, ticksPerFrame: Int64, lastFramePTS: Int64, lastFrameDuration: Int64) {
        self.timeBase = timeBase
        self.ticksPerFrame = ticksPerFrame
        self.lastFramePTS = lastFramePTS
        self.lastFrameDuration = lastFrameDuration
    }

    /// The clock for `plan`; for a part of a segmented export, the time base comes from the whole export's duration
    /// (reduced), so that every part — which starts and ends on the frame grid or at the export's end — has the same.
    init(_ plan: VideoPlan, segmentedExportDuration: MediaTime? = nil) {
        let fd = plan.frameDuration, duration = plan.duration
        let lastIndex = Int64(max(plan.frameCount - 1, 0))
        var b = Int64(duration.timescale)
        if let whole = segmentedExportDuration, whole.isNumeric, whole.value != 0 {
            b = Int64(whole.timescale) / Int64(Int64.greatestCommonDivisor(whole.value, Int64(whole.timescale)))
            let g = Int64(Int64.greatestCommonDivisor(fd.value, Int64(fd.timescale)))
            let reducedFrameScale = Int64(fd.timescale) / g
            b = b / Int64(Int64.greatestCommonDivisor(b, reducedFrameScale)) * reducedFrameScale
        }
        let a = Int64(fd.timescale)
        let lcm = a / Int64(Int64.greatestCommonDivisor(a, b)) * b
        if lcm <= 1_000_000_000, fd.value <= Int64(Int32.max) {
            let ticksPerFrame = fd.value * (lcm / a)
            let total = Int64(clamping: Int128(duration.value) * Int128(lcm) / Int128(duration.timescale))
            let lastPTS = lastIndex * ticksPerFrame
            self.init(timeBase: AVRational(num: 1, den: Int32(lcm)), ticksPerFrame: ticksPerFrame,
                      lastFramePTS: lastPTS, lastFrameDuration: max(1, total - lastPTS))
        } else {
            self.init(timeBase: AVRational(num: Int32(clamping: fd.value), den: fd.timescale), ticksPerFrame: 1,
                      lastFramePTS: lastIndex, lastFrameDuration: 1)
        }
    }

    /// The encoder timestamp of output frame `index`.
    func pts(ofFrame index: Int64) -> Int64 { index * ticksPerFrame }

    /// The duration of the frame whose encoder timestamp is `pts`.
    func duration(ofFrameAt pts: Int64) -> Int64 { pts == lastFramePTS ? lastFrameDuration : ticksPerFrame }
}
