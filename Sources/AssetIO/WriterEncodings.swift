import Composition
import Export
import SpliceFFmpeg
internal import CMedia

/// A video input's encoder and the graph converting appended pictures to its pixel format (`scale` to BT.709
/// limited range through libswscale — YUV pictures read with their tagged matrix and range, BT.709 limited when
/// untagged — then `format` and `setparams` tags). Each picture is held back until the next
/// one arrives, so its packet gets its real duration (the next time minus its own; the last one the nominal frame
/// duration) — libx264 leaves durations 0, and the muxer takes the track's end from the last packet's. For segment
/// output, the first picture at or after each segment boundary is forced to be an IDR picture
/// (``SegmentKeyFrameSchedule``), so every segment lasts exactly the interval asked for, rounded to pictures.
final class VideoEncoding {
    let encoder: Encoder
    private let settings: WriterVideoSettings
    private let timeBase: AVRational
    private let encoderPixelFormat: AVPixelFormat
    private var graph: FilterGraph?
    private let source: Frame
    private let converted: Frame
    private let held: Frame
    private var heldPTS: Int64?
    private var durations: [Int64: Int64] = [:]
    private let nominalDuration: Int64
    private var keyFrames: SegmentKeyFrameSchedule?

    /// - Parameter keyFrames: the segment boundaries to force IDR pictures at (times after the session start); nil
    ///   leaves key frames to the encoder.
    init(settings: WriterVideoSettings, fileType: FileType, firstFormat: PixelBuffer.PixelFormat,
         keyFrames: SegmentKeyFrameSchedule? = nil) throws {
        self.settings = settings
        self.keyFrames = keyFrames
        timeBase = AVRational(num: 1, den: settings.timeScale)
        var configuration = settings.encoding.encoderConfiguration(
            size: settings.size, frameDuration: settings.frameDuration, timeScale: settings.timeScale, fileType: fileType)
        Self.applyProfileAndReordering(of: settings, to: &configuration)
        if keyFrames != nil {
            configuration.options.merge(SegmentKeyFrameSchedule.encoderOptions(encoderName: configuration.encoderName)) { $1 }
        }
        guard case .video(let video) = configuration.media else { throw AssetWriterError.outOfMemory }
        encoderPixelFormat = video.pixelFormat
        encoder = try Encoder(configuration: configuration)
        source = try Frame()
        converted = try Frame()
        held = try Frame()
        nominalDuration = max(1, settings.frameDuration.timestamp(in: timeBase) ?? 1)
    }

    /// The input's profile, level and B-frame choice as encoder options: libx264's `profile`/`level`, libx265's
    /// `profile` and `level-idc` (in `x265-params`), the generic `bf=0` without frame reordering.
    private static func applyProfileAndReordering(of settings: WriterVideoSettings, to configuration: inout EncoderConfiguration) {
        if let profile = settings.profile { configuration.options["profile"] = profile }
        if let level = settings.level {
            if settings.encoding.codec == .hevc {
                configuration.options["x265-params"] = [configuration.options["x265-params"], "level-idc=\(level)"]
                    .compactMap { $0 }.joined(separator: ":")
            } else {
                configuration.options["level"] = level
            }
        }
        if !settings.allowsFrameReordering { configuration.options["bf"] = "0" }
    }

    /// `scale`'s options naming what a YUV picture is in: its tagged matrix and range, BT.709 limited when it says
    /// none (RGB needs none: it is full range and has no matrix).
    private static func inputColorOptions(of picture: PixelBuffer) -> String {
        guard picture.pixelFormat.isYCbCr else { return "" }
        let matrix: String = switch picture.color.matrix {
        case "smpte170m", "bt470bg": "bt601"
        case "bt2020nc", "bt2020c": "bt2020"
        case "smpte240m": "smpte240m"
        case "fcc": "fcc"
        default: "bt709"
        }
        return ":in_color_matrix=\(matrix):in_range=\(picture.color.range == .full ? "pc" : "tv")"
    }

    private func makeGraph(for picture: PixelBuffer) throws -> FilterGraph {
        let input = FilterGraph.VideoSource(
            label: "in", width: settings.size.width, height: settings.size.height,
            pixelFormat: av_get_pix_fmt(picture.pixelFormat.ffmpegName).rawValue, timeBase: timeBase)
        let output = av_get_pix_fmt_name(encoderPixelFormat).map { String(cString: $0) } ?? "yuv420p"
        return try FilterGraph(
            description: "[in]scale=flags=bicubic\(Self.inputColorOptions(of: picture)):out_color_matrix=bt709:out_range=tv,"
                + "format=\(output),"
                + "setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709[out]",
            sources: [.video(input)], sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
    }

    /// Converts `picture` (shown at `time` after the session start) and encodes the picture before it.
    func append(_ picture: PixelBuffer, at time: MediaTime, stream: Int, muxer: EncodingMuxer) throws {
        guard let pts = time.timestamp(in: timeBase) else { return }
        let graph = try self.graph ?? makeGraph(for: picture)
        self.graph = graph
        try fillSource(with: picture)
        source.pts = pts
        source.markSquarePixels()
        try graph.push(source, to: 0)
        guard try graph.pull(from: 0, into: converted) == .frame else { return }
        if let heldPTS {
            durations[heldPTS] = pts - heldPTS
            try encodeHeld(stream: stream, muxer: muxer)
        }
        held.take(from: converted)
        heldPTS = pts
    }

    /// Makes `source` the picture: its planes referenced where they are (the graph's `scale` reads them; the
    /// picture's memory is kept until FFmpeg lets go of it), or copied when a plane is not the picture's own memory.
    private func fillSource(with picture: PixelBuffer) throws {
        let pixelFormat = av_get_pix_fmt(picture.pixelFormat.ffmpegName)
        let shapes = picture.pixelFormat.planeShapes(width: picture.width, height: picture.height)
        let owned = picture.planes.compactMap { plane in plane.ownedBytes.map { (bytes: $0, bytesPerRow: plane.bytesPerRow) } }
        if owned.count == shapes.count, owned.allSatisfy({ !$0.bytes.isEmpty }) {
            try source.referencePicture(width: picture.width, height: picture.height, pixelFormat: pixelFormat, planes: owned)
            return
        }
        try source.allocatePicture(width: picture.width, height: picture.height, pixelFormat: pixelFormat)
        for (index, shape) in shapes.enumerated() {
            guard let destination = source.plane(index) else { continue }
            let stride = source.bytesPerRow(ofPlane: index), plane = picture.planes[index]
            try plane.withUnsafeBytes { bytes in
                let bytes = bytes.bindMemory(to: UInt8.self)
                for row in 0..<shape.rows {
                    (destination + row * stride).update(from: bytes.baseAddress! + row * plane.bytesPerRow, count: shape.rowBytes)
                }
            }
        }
    }

    private func encodeHeld(stream: Int, muxer: EncodingMuxer) throws {
        held.resetPictureType()
        if let heldPTS, keyFrames?.forcesKeyFrame(at: MediaTime(value: heldPTS, timescale: timeBase.den)) == true {
            held.forceKeyFrame()
        }
        try muxer.encode(held, stream: stream, adjust: adjust)
    }

    private func adjust(_ packet: Packet) {
        packet.duration = packet.presentationTimestamp.flatMap { durations.removeValue(forKey: $0) } ?? nominalDuration
    }

    /// Encodes the held picture (lasting until `end`, after the session start, when given; else the nominal frame
    /// duration) and drains the encoder.
    func finish(stream: Int, muxer: EncodingMuxer, end: MediaTime? = nil) throws {
        if let heldPTS {
            let endPTS = end.flatMap { $0.timestamp(in: timeBase) }
            durations[heldPTS] = endPTS.map { max(1, $0 - heldPTS) } ?? nominalDuration
            try encodeHeld(stream: stream, muxer: muxer)
            self.heldPTS = nil
        }
        try muxer.encode(nil, stream: stream, adjust: adjust)
    }
}

/// An audio input's encoder and the graph converting appended sound to its format, rate, layout and frame size
/// (`aresample` through libswresample, `aformat`, the encoder's frame size at the sink).
final class AudioEncoding {
    let encoder: Encoder
    private let settings: AudioSettings
    private var graph: FilterGraph?
    private let source: Frame
    private let converted: Frame

    init(settings: AudioSettings, first: AudioBuffer?) throws {
        self.settings = settings
        encoder = try Encoder(configuration: settings.encoderConfiguration(sampleRate: settings.sampleRate,
                                                                          channelCount: settings.channelCount))
        source = try Frame()
        converted = try Frame()
    }

    /// Nothing to do before the first sound: the sink's frame size is set when the graph is built.
    func configureFrameSize() {}

    private func makeGraph(for sound: AudioBuffer) throws -> FilterGraph {
        let input = FilterGraph.AudioSource(
            label: "in", sampleRate: sound.sampleRate,
            sampleFormat: av_get_sample_fmt(sound.sampleFormat.ffmpegName).rawValue,
            channelLayout: FrameConverter.defaultLayoutName(channels: sound.channelCount),
            timeBase: AVRational(num: 1, den: Int32(sound.sampleRate)))
        let format = av_get_sample_fmt_name(encoder.sampleFormat).map { String(cString: $0) } ?? "fltp"
        let layout = FrameConverter.defaultLayoutName(channels: settings.channelCount)
        let graph = try FilterGraph(
            description: "[in]aresample=\(settings.sampleRate),aformat=sample_fmts=\(format):sample_rates=\(settings.sampleRate)"
                + ":channel_layouts=\(layout)[out]",
            sources: [.audio(input)], sinkLabels: ["out"], sinkIsAudio: [true], threads: 1)
        if encoder.frameSize > 0 { graph.setFrameSize(encoder.frameSize, forSink: 0) }
        return graph
    }

    /// Converts the first `frameCount` sample frames of `sound` (heard from `time` after the session start) and
    /// encodes every whole encoder frame they complete.
    func append(_ sound: AudioBuffer, frameCount: Int, at time: MediaTime, stream: Int, muxer: EncodingMuxer) throws {
        guard frameCount > 0 else { return }
        guard let pts = time.timestamp(in: AVRational(num: 1, den: Int32(sound.sampleRate))) else { return }
        let graph = try self.graph ?? makeGraph(for: sound)
        self.graph = graph
        try source.allocateAudio(sampleCount: frameCount, sampleFormat: av_get_sample_fmt(sound.sampleFormat.ffmpegName),
                                 sampleRate: sound.sampleRate, channelCount: sound.channelCount)
        if let destination = source.plane(0) {
            let count = min(sound.bytes.count, frameCount * sound.channelCount * sound.sampleFormat.bytesPerSample)
            sound.bytes.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: count) }
        }
        source.pts = pts
        try graph.push(source, to: 0)
        try encodeConverted(graph: graph, stream: stream, muxer: muxer)
    }

    private func encodeConverted(graph: FilterGraph, stream: Int, muxer: EncodingMuxer) throws {
        while try graph.pull(from: 0, into: converted) == .frame {
            try muxer.encode(converted, stream: stream)
        }
    }

    /// Flushes the graph's last partial frame and drains the encoder.
    func finish(stream: Int, muxer: EncodingMuxer) throws {
        if let graph {
            try graph.push(nil, to: 0)
            try encodeConverted(graph: graph, stream: stream, muxer: muxer)
        }
        try muxer.encode(nil, stream: stream)
    }
}
