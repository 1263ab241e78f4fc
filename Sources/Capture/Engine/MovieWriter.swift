import Composition
import Foundation
import SpliceFFmpeg
internal import CMedia
#if canImport(Glibc)
import Glibc
#endif

/// Writes one recording on the engine thread (or encodes for a live stream): H.264 + AAC into a fragmented MP4/MOV
/// (``OutputFile/delayedMovieBoxFragmentOptions(metadataKeySpace:)``), a fragment written and flushed to the file at each fragment boundary
/// so a crash keeps every complete fragment. The `moov` goes out with the first fragment, its edit lists hiding the
/// AAC priming, so a file a crash leaves starts its pictures and sound at 0 as the finished movie does. Video frames are placed on the frame grid of the movie (a frame per slot of
/// 1/frameRate s; a second frame in the same slot is dropped); audio is counted sample by sample from the first
/// buffer's session time. The recording ends on an exact frame and sample.
final class MovieWriter {
    let settings: MovieWriterSettings
    let muxer: EncodingMuxer
    var videoStream: Int?
    var audioStream: Int?
    var videoGraph: FilterGraph?
    var audioGraph: FilterGraph?
    let filtered: Frame
    /// Movie time (µs) past which the first fragment and the `moov` are written without waiting for a stream that
    /// has had no packet yet: the larger of two first-fragment intervals and 10 s (libavformat's default
    /// `max_interleave_delta`, how long its own interleaving waits for a silent stream). Until then the muxer holds
    /// every packet in memory and nothing is on disk; a device that delivers nothing at all (and does not fail) would
    /// otherwise make the recording grow in memory without bound and leave nothing for a crash to keep.
    var movieBoxDeadline: Int64 { max(2 * min(settings.initialFragmentInterval, Int64.max / 2), 10_000_000) }
    /// Session time (µs) of the movie's time zero; nil until the first frame decides it.
    var movieStart: Int64?
    let requestedStart: Int64
    var pendingAudio: [(Frame, Int64)] = []
    var lastVideoSlot: Int64 = -1
    /// The next device sample's index on the movie's clock, pauses included (counted from the first buffer).
    var nextRawSample: Int64?
    /// The next movie sample to write (sound before it is in the movie or was cut by a pause).
    var audioCursor: Int64 = 0
    /// Frame slots, and the samples of as many frames, of session time left out by pauses (``pause(at:)``).
    var excludedSlots: Int64 = 0
    var excludedSamples: Int64 = 0
    /// The pause under way (from ``pause(at:)`` until the resume point is known), nil while recording.
    var pause: Pause?
    /// True between ``pause(at:)`` and ``resume(at:)``.
    var isPaused = false
    /// Copies of the last buffers of sound read during a pause with their first samples' raw indexes: the resume
    /// point is known only at the next picture, and the sound from there on is in them.
    var heldAudio: [(Frame, Int64)] = []
    var writtenAudioSamples: Int64 = 0
    var endTime: Int64?
    var endReason: CaptureRecordingError?
    var nextFragment: Int64
    var pendingBytes: Int64 = 0
    var lastDiskCheck: Int64 = -1_000_000
    var droppedFrames = 0
    /// True once a picture at or past the end arrived (a late device may skip the last slots).
    var videoReachedEnd = false
    /// The largest packet written so far, bytes (a key frame), for keeping under the size limit.
    var largestPacket: Int64 = 0

    /// Claims `settings.url` (it must not exist: never overwritten), opens the muxer and the encoders; for a live
    /// stream's own encoders (``MovieWriterSettings/Destination/liveStream``) no file: FFmpeg's `null` muxer, whose
    /// packets the stream takes through ``EncodingMuxer/mirror(to:)``.
    /// - Throws: ``CaptureRecordingError``.
    init(settings: MovieWriterSettings, requestedStart: Int64) throws(CaptureRecordingError) {
        self.settings = settings
        self.requestedStart = requestedStart
        nextFragment = settings.initialFragmentInterval
        let path = settings.url.path
        let format = settings.url.pathExtension.lowercased() == "mov" ? "mov" : "mp4"
        let rates = settings.rateControl
        do throws(ContainerMetadata.InvalidLocation) {
            try ContainerMetadata.checkLocations(settings.metadata)
        } catch {
            throw .invalidMetadata(key: error.key, value: error.value, reason: error.description)
        }
        if case .movieFile = settings.destination {
            let claim = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o644)
            guard claim >= 0 else {
                if errno == EEXIST { throw .fileAlreadyExists(path) }
                throw .writeFailed(path: path, reason: FailureReason.words(errno: errno))
            }
            close(claim)
        }
        do {
            if case .movieFile = settings.destination {
                muxer = try EncodingMuxer(path: path, formatName: format)
            } else {
                muxer = try EncodingMuxer.discardingOutput()
            }
            filtered = try Frame()
            if let video = settings.video {
                var configuration = EncoderConfiguration(encoderName: "libx264", media: .video(.init(
                    width: video.width, height: video.height, pixelFormat: AV_PIX_FMT_YUV420P,
                    timeBase: AVRational(num: 1, den: video.frameRate), frameRate: AVRational(num: video.frameRate, den: 1))))
                if case .video(var picture) = configuration.media {
                    picture.keyFrameInterval = rates?.keyFrameInterval ?? Int(video.frameRate)
                    picture.color = .bt709
                    configuration.media = .video(picture)
                }
                configuration.threadCount = 1
                configuration.options = ["preset": "ultrafast", "tune": "zerolatency", "crf": "23"]
                if let rates {
                    // Constant bit rate with a VBV buffer of one second, key frames only on the interval (no scene
                    // cuts): what streaming servers and players expect.
                    configuration.bitRate = Int64(rates.videoBitRate)
                    configuration.options = ["preset": "ultrafast", "tune": "zerolatency", "maxrate": "\(rates.videoBitRate)",
                                             "bufsize": "\(rates.videoBitRate)", "x264-params": "nal-hrd=cbr:scenecut=0"]
                }
                let stream = try muxer.addStream(try Encoder(configuration: configuration))
                if let matrix = settings.displayMatrix { try muxer.output.setDisplayMatrix(matrix, onStream: stream) }
                videoStream = stream
            }
            if let sampleRate = settings.audioSampleRate {
                var configuration = EncoderConfiguration(encoderName: "aac", media: .audio(.init(
                    sampleRate: sampleRate, sampleFormat: AV_SAMPLE_FMT_FLTP, channelCount: 2)))
                configuration.bitRate = Int64(rates?.audioBitRate ?? 128_000)
                audioStream = try muxer.addStream(try Encoder(configuration: configuration))
            }
            let usesMetadataKeySpace = muxer.output.setContainerMetadata(settings.metadata)
            if case .movieFile = settings.destination {
                // Edit lists to the sample (a late microphone's empty edit, the priming), not to the millisecond.
                try muxer.writeHeader(options: muxer.output.delayedMovieBoxFragmentOptions(metadataKeySpace: usesMetadataKeySpace))
            } else {
                try muxer.writeHeader()
            }
            muxer.output.flush()
        } catch {
            if case .movieFile = settings.destination { try? FileManager.default.removeItem(atPath: path) }
            throw .writeFailed(path: path, reason: FailureReason.words(for: error))
        }
        if let maxDuration = settings.maxDuration { endTime = maxDuration; endReason = .maximumDurationReached }
    }

    /// Movie time recorded so far, µs.
    var recordedDuration: Int64 {
        let video = settings.video.map { (lastVideoSlot + 1) * 1_000_000 / Int64($0.frameRate) } ?? 0
        let audio = settings.audioSampleRate.map { writtenAudioSamples * 1_000_000 / Int64($0) } ?? 0
        return max(video, audio)
    }

    /// Bytes in the file plus those the muxer holds for the current fragment.
    var recordedFileSize: Int64 { muxer.output.bytesWritten + pendingBytes }

    /// True when every stream has reached the end time.
    var isComplete: Bool {
        guard let endTime else { return false }
        let videoDone = settings.video.map { videoReachedEnd || lastVideoSlot + 1 >= Self.slots(endTime, $0.frameRate) } ?? true
        let audioDone = settings.audioSampleRate.map { audioCursor >= endTime * Int64($0) / 1_000_000 } ?? true
        return videoDone && audioDone
    }

    /// Ends the recording at movie time `time` µs — for a clean stop (`reason` nil) no earlier than the sound and
    /// the pictures already encoded — rounded up to a whole frame, unless an earlier end is already set.
    func end(at time: Int64, reason: CaptureRecordingError?) {
        var time = max(0, time)
        // Sound and pictures already handed to the encoders cannot be taken back: the end is at least where they end
        // (a stop asked for at a session time the engine has already read past, on a loaded machine).
        if let rate = settings.audioSampleRate, reason == nil {
            time = max(time, (audioCursor * 1_000_000 + Int64(rate) - 1) / Int64(rate))
        }
        if let video = settings.video, reason == nil {
            time = max(time, (lastVideoSlot + 1) * 1_000_000 / Int64(video.frameRate))
        }
        if let video = settings.video {
            time = Self.slots(time, video.frameRate) * 1_000_000 / Int64(video.frameRate)
        }
        if let endTime, endTime <= time { return }
        endTime = time
        endReason = reason
    }

    static func slots(_ micros: Int64, _ frameRate: Int32) -> Int64 {
        (micros * Int64(frameRate) + 999_999) / 1_000_000
    }
}
