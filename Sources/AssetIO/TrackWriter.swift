import Composition
import Export
import SpliceFFmpeg
internal import CMedia

/// One track of the file being written: a copied stream (passthrough) or an encoder with the graph feeding it.
final class TrackWriter {
    let name: String
    let stream: Int
    private let sessionStart: MediaTime
    /// Where the session ends (the appended samples' timeline), once known: later samples are dropped, sound is cut
    /// there, the last picture lasts until it.
    var sessionEnd: MediaTime?
    private let kind: Kind
    private let packet: Packet
    private var finished = false

    private enum Kind {
        case passthrough(timeBase: AVRational)
        /// SpliceFFmpeg's timed metadata track, written as an export writes it.
        case timedMetadata
        case video(VideoEncoding)
        case audio(AudioEncoding)
    }

    /// - Parameter keyFrames: for segment output, the boundaries a video encoder forces IDR pictures at.
    init(input: WriterJob.Input, name: String, first: SampleBuffer?, fileType: FileType, muxer: EncodingMuxer,
         sessionStart: MediaTime, keyFrames: SegmentKeyFrameSchedule? = nil) throws {
        self.name = name
        self.sessionStart = sessionStart
        packet = try Packet()
        switch input.settings {
        case nil where input.mediaType == .metadata:
            stream = try muxer.output.addTimedMetadataStream()
            kind = .timedMetadata
        case nil:
            guard let first, let parameters = first.formatDescription.codecParameters else {
                throw AssetWriterError.sampleMismatch(input: name, reason: "a passthrough input needs at least one sample to describe its track")
            }
            guard OutputFile.muxer(named: fileType.muxerName, canHold: AVCodecID(rawValue: parameters.codecID)) else {
                throw AssetWriterError.unsupportedInput(input: name, reason: "a .\(fileType.rawValue) file cannot hold \(first.formatDescription.codecName)")
            }
            let timeBase = AVRational(num: 1, den: first.formatDescription.timeScale)
            stream = try muxer.output.addStream(timeBase: timeBase) { try parameters.apply(to: $0) }
            kind = .passthrough(timeBase: timeBase)
        case .video(let settings)?:
            let encoding = try VideoEncoding(settings: settings, fileType: fileType, firstFormat: first?.imageBuffer?.pixelFormat ?? .bgra8,
                                             keyFrames: keyFrames)
            stream = try muxer.addStream(encoding.encoder)
            kind = .video(encoding)
        case .audio(let settings)?:
            let encoding = try AudioEncoding(settings: settings, first: first?.audioBuffer)
            stream = try muxer.addStream(encoding.encoder)
            encoding.configureFrameSize()
            kind = .audio(encoding)
        }
    }

    func append(_ sample: SampleBuffer, muxer: EncodingMuxer) throws {
        if let sessionEnd, sample.presentationTime >= sessionEnd { return }
        switch kind {
        case .passthrough(let timeBase):
            guard let data = sample.dataBuffer else { return }
            packet.unref()
            try packet.prepend(data)
            let shift = sessionStart
            let pts = (sample.presentationTime - shift).timestamp(in: timeBase) ?? 0
            let dts = (sample.decodeTime - shift).timestamp(in: timeBase) ?? pts
            var duration = sample.duration.timestamp(in: timeBase) ?? 0
            if let end = sessionEnd.flatMap({ ($0 - shift).timestamp(in: timeBase) }), sample.formatDescription.mediaType == .video {
                duration = min(duration, end - pts)
            }
            packet.setTiming(presentation: pts, decoding: dts, duration: duration)
            packet.pointer.pointee.flags = sample.isKeyFrame ? AV_PKT_FLAG_KEY : 0
            packet.prepareForMuxing(stream: stream)
            packet.rescaleTimestamps(from: timeBase, to: muxer.output.timeBase(ofStream: stream))
            try muxer.write(packet)
        case .timedMetadata:
            guard var group = sample.timedMetadataGroup else { return }
            if let sessionEnd, group.timeRange.end > sessionEnd {
                group.timeRange = TimeRange(start: group.timeRange.start, end: sessionEnd)
            }
            try muxer.output.writeTimedMetadata(group, offset: sessionStart, stream: stream)
        case .video(let encoding):
            guard let picture = sample.imageBuffer else { return }
            try encoding.append(picture, at: sample.presentationTime - sessionStart, stream: stream, muxer: muxer)
        case .audio(let encoding):
            guard let sound = sample.audioBuffer else { return }
            // Cut at the session's end, to the sample.
            let frames = sessionEnd.map { end in
                min(sound.frameCount, Int((end - sample.presentationTime).convertScale(Int32(sound.sampleRate), method: .towardZero).value))
            } ?? sound.frameCount
            try encoding.append(sound, frameCount: frames, at: sample.presentationTime - sessionStart, stream: stream, muxer: muxer)
        }
    }

    func finish(muxer: EncodingMuxer) throws {
        guard !finished else { return }
        finished = true
        switch kind {
        case .passthrough, .timedMetadata: break
        case .video(let encoding): try encoding.finish(stream: stream, muxer: muxer, end: sessionEnd.map { $0 - sessionStart })
        case .audio(let encoding): try encoding.finish(stream: stream, muxer: muxer)
        }
        try muxer.endStream(stream)
    }
}
