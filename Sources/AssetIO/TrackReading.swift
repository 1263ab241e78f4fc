import Foundation
import Composition
import SpliceFFmpeg
internal import CMedia

/// What one output's thread reads: plain data handed to the thread.
struct TrackReadingJob: Sendable {
    var url: URL
    var track: AssetTrack
    var settings: AssetReaderOutputSettings?
    var timeRange: TimeRange?
    /// The output decoded pictures are lent to without a copy; nil: copied (``FrameConverter``).
    var lendingOutput: String?
}

/// One output's read loop, confined to its thread: the ``InputFile`` (other streams discarded), and for decoded
/// output a ``Decoder`` and the ``FilterGraph`` converting its frames (`scale`/`format` through libswscale,
/// `aresample`/`aformat` through libswresample). Every owner is freed by its own `deinit` when the loop ends.
final class TrackReading {
    private let job: TrackReadingJob
    private let input: InputFile
    private let stream: UnsafeMutablePointer<AVStream>
    private let timeBase: AVRational
    private let packet: Packet
    /// The last sample time reached, for error messages.
    private var lastTime: MediaTime?

    /// Opens the file and selects the track's stream.
    /// - Throws: ``AssetReaderError/readFailed(_:trackID:time:reason:)``; `CancellationError`.
    init(job: TrackReadingJob, cancellation: CancellationFlag) throws {
        self.job = job
        do {
            input = try InputFile(url: job.url, cancellation: cancellation)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw AssetReaderError.readFailed(job.url, trackID: job.track.trackID, time: nil, reason: FailureReason.words(for: error))
        }
        guard job.track.streamIndex >= 0, job.track.streamIndex < input.streamCount else {
            throw AssetReaderError.readFailed(job.url, trackID: job.track.trackID, time: nil,
                                              reason: "the file has no stream \(job.track.streamIndex) any more")
        }
        stream = input.stream(at: job.track.streamIndex)
        timeBase = stream.pointee.time_base
        for other in 0..<input.streamCount where other != job.track.streamIndex {
            input.stream(at: other).pointee.discard = AVDISCARD_ALL
        }
        packet = try Packet()
    }

    /// Reads the track, handing each sample to `deliver` in order; stops early when `deliver` returns false.
    /// - Throws: ``AssetReaderError/readFailed(_:trackID:time:reason:)`` naming the time reached; `CancellationError`.
    func run(deliver: (SampleBuffer) -> Bool) throws {
        do {
            try seekToStart()
            if let settings = job.settings {
                try decode(settings, deliver: deliver)
            } else {
                try copyPackets(deliver: deliver)
            }
        } catch let error as AssetReaderError {
            throw error
        } catch {
            if FFmpegError.isCancellation(error, cancelled: input.cancellation.isCancelled) { throw CancellationError() }
            throw AssetReaderError.readFailed(job.url, trackID: job.track.trackID, time: lastTime, reason: FailureReason.words(for: error))
        }
    }

    private var rangeStart: MediaTime? {
        guard let range = job.timeRange, range.start > .zero else { return nil }
        return range.start
    }

    private var rangeEnd: MediaTime? {
        guard let range = job.timeRange, range.duration.isNumeric else { return nil }
        return range.start + range.duration
    }

    private func seekToStart() throws {
        guard let start = rangeStart, let timestamp = start.timestamp(in: timeBase, method: .towardNegativeInfinity) else {
            return
        }
        try input.seek(streamIndex: job.track.streamIndex, toTimestamp: timestamp)
    }

    /// Packets of the track read so far.
    private var packetCount = 0

    /// Reads the track's next packet into ``packet``; false at the end of the file.
    /// - Throws: ``AssetReaderError/readFailed(_:trackID:time:reason:)`` for a packet the file ends inside
    ///   (`AV_PKT_FLAG_CORRUPT`), or, with `time` the file time where the track's data ends, when the file ends
    ///   before the samples its index lists (``InputFile/readPacket(into:)``: libavformat itself reports a file cut
    ///   inside its media data as a plain end of file).
    private func readTrackPacket() throws -> Bool {
        do {
            while try input.readPacket(into: packet) {
                guard packet.streamIndex == job.track.streamIndex else { continue }
                packetCount += 1
                if packet.isCorrupt {
                    throw AssetReaderError.readFailed(job.url, trackID: job.track.trackID, time: lastTime,
                                                      reason: "sample \(packetCount) is incomplete (the file ends inside it)")
                }
                return true
            }
        } catch let truncation as SourceTruncation {
            throw AssetReaderError.readFailed(job.url, trackID: job.track.trackID, time: truncation.dataEnd,
                                              reason: truncation.description)
        }
        return false
    }

    private func time(_ timestamp: Int64?) -> MediaTime? {
        timestamp.flatMap { MediaTime(pts: $0, timeBase: timeBase) }
    }

    // MARK: Compressed samples

    private func copyPackets(deliver: (SampleBuffer) -> Bool) throws {
        guard let parameters = stream.pointee.codecpar else { return }
        let codec = CodecParameters(parameters)
        var format = FormatDescription(mediaType: job.track.mediaType, codecName: job.track.codecName,
                                       extradata: codec.extradata, timeScale: timeBase.den)
        if job.track.mediaType == .video { format.dimensions = Size(width: Int(codec.width), height: Int(codec.height)) }
        if job.track.mediaType == .audio {
            format.sampleRate = Int(codec.sampleRate)
            format.channelCount = Int(codec.channelCount)
        }
        format.codecParameters = codec
        let end = rangeEnd
        while try readTrackPacket() {
            let decodeTime = time(packet.decodingTimestamp)
            guard let presentation = time(packet.presentationTimestamp) ?? decodeTime else { continue }
            if let end, (decodeTime ?? presentation) >= end { return }
            lastTime = presentation
            let sample = SampleBuffer(
                presentationTime: presentation, decodeTime: decodeTime ?? presentation,
                duration: time(packet.duration) ?? .zero, sampleCount: 1, isKeyFrame: packet.isKeyFrame,
                formatDescription: format, dataBuffer: packet.data)
            if !deliver(sample) { return }
        }
    }

    // MARK: Decoded samples

    private func decode(_ settings: AssetReaderOutputSettings, deliver: (SampleBuffer) -> Bool) throws {
        let decoder = try Decoder(stream: stream)
        // Sound whose channel order the file does not state (PCM with layout "unknown") gets FFmpeg's default order
        // for its channel count on every frame, so the graph sees one layout throughout.
        var fallbackLayout = decoder.channelLayoutOrDefault
        defer { av_channel_layout_uninit(&fallbackLayout) }
        let isSound = job.track.mediaType == .audio
        let frame = try Frame()
        let converted = try Frame()
        var converter: FrameConverter?
        var stopped = false

        /// Pushes `frame` (nil: end) through the converter and delivers what comes out; false once done.
        func convert(_ frame: Frame?) throws -> Bool {
            if let frame {
                if converter == nil || !converter!.accepts(frame) {
                    if let old = converter, try !old.flush(into: converted, emit: emit) { return false }
                    converter = try FrameConverter(first: frame, settings: settings, timeBase: timeBase,
                                                   lendingOutput: job.lendingOutput)
                }
            }
            guard let converter else { return true }
            if let frame { return try converter.push(frame, into: converted, emit: emit) }
            return try converter.flush(into: converted, emit: emit)
        }

        func emit(_ sample: SampleBuffer) -> Bool {
            let end = sample.presentationTime + sample.duration
            if let start = rangeStart, end <= start, sample.duration > .zero { return true }
            if let start = rangeStart, sample.duration == .zero, sample.presentationTime < start { return true }
            if let rangeEnd, sample.presentationTime >= rangeEnd { stopped = true; return false }
            lastTime = sample.presentationTime
            if !deliver(sample) { stopped = true; return false }
            return true
        }

        func receiveAll() throws -> Bool {
            while true {
                switch try decoder.receive(into: frame) {
                case .frame:
                    if isSound { frame.fillUnspecifiedChannelLayout(with: fallbackLayout) }
                    frame.pts = frame.bestEffortTimestamp
                    frame.resetPictureType()
                    if try !convert(frame) { return false }
                case .needsInput: return true
                case .endOfStream: return true
                }
            }
        }

        while try readTrackPacket() {
            lastTime = time(packet.presentationTimestamp) ?? lastTime
            try input.markPriming(of: packet)
            while try !decoder.send(packet) {
                if try !receiveAll() { return }
            }
            if try !receiveAll() { return }
        }
        _ = try decoder.send(nil)
        if try !receiveAll() { return }
        if !stopped { _ = try convert(nil) }
    }
}
