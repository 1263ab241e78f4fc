import SpliceFFmpeg
import Export
import Composition
import Foundation
internal import CMedia

/// Lossless test media made in-process from FFmpeg's generator filters (lavfi `testsrc2`, `color`, `sine`,
/// `aevalsrc`, …), so test suites need few binary fixtures and never run the `ffmpeg` command-line tool.
///
/// The pictures are encoded with FFV1 (every frame a key frame), the sound as 16-bit PCM, in QuickTime (`.mov`,
/// exact rational timestamps: a 30 fps frame lasts exactly 1/30 s) or Matroska (`.mkv`, millisecond timestamps).
/// Both codecs are lossless: decoding the file gives back exactly the generator's pixels (in ``PixelFormat/rgb``)
/// and samples (after their conversion to 16 bits).
///
/// ```swift
/// try SyntheticMedia.write(video: "testsrc2=s=320x240:r=30", audio: "sine=f=1000:r=48000",
///                          duration: MediaTime(seconds: 2), to: URL(fileURLWithPath: "/tmp/pattern.mov"))
/// ```
public enum SyntheticMedia {
    /// How the pictures are stored.
    public enum PixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
        /// 8-bit RGB (`bgr0`), untagged: the generator's colours are kept exactly (pure red stays (255, 0, 0)).
        case rgb
        /// 8-bit 4:2:0 YUV, limited range, BT.709 matrix, tagged as such: the export canvas's own format, so a
        /// picture shown at identity passes through a render untouched.
        case yuv420p
    }

    /// How the pictures are encoded.
    public enum VideoCodec: Sendable, Hashable {
        /// Lossless FFV1, every frame a key frame (the default).
        case ffv1
        /// Lossy H.264 through libx264 (preset `veryfast`, one thread, so the same input gives the same packets), with
        /// x264's own options (`"keyint=10:min-keyint=10:scenecut=0:bframes=3:open-gop=1"`): for tests of group of
        /// pictures structure (closed and open GOPs, B-frames). Needs ``PixelFormat/yuv420p``.
        case h264(x264Parameters: String)
        /// Lossy HEVC through libx265 (preset `veryfast`, one frame thread, `log-level=error`, sample entry `hvc1`),
        /// with x265's own options (`"keyint=30:min-keyint=30:scenecut=0:bframes=3:open-gop=0"`). Needs
        /// ``PixelFormat/yuv420p``.
        case hevc(x265Parameters: String)
    }

    /// Renders the lavfi descriptions for `duration` and writes them, losslessly, to a new `.mov` or `.mkv` file.
    ///
    /// Each description is a filter chain (or graph) in FFmpeg's `-filter_complex` syntax whose single unlabelled
    /// output is the stream, e.g. `"testsrc2=s=320x240:r=30"`, `"color=c=0xFF0000:s=320x240:r=30"`,
    /// `"sine=f=1000:r=48000"`, `"aevalsrc=0.5*sin(2*PI*440*t):s=48000:c=stereo"`. The picture size and frame rate
    /// come from the video description (set `s=` and `r=`), the sample rate and channel layout from the audio one.
    /// Frames whose presentation time is before `duration` are written; the sound is cut to exactly
    /// `duration × sample rate` samples (rounded down).
    ///
    /// The container follows `url`'s extension. QuickTime keeps every timestamp exact. Matroska stores times in
    /// milliseconds: a 30 fps frame `k` is stored at `round(k × 1000 / 30)` ms, as the `ffmpeg` tool does, and
    /// `Asset.load(from:)` reads it back at that time (so its shortest frame interval is 33 ms, not 1/30 s).
    ///
    /// - Parameters:
    ///   - video: the picture source, or nil for a sound-only file.
    ///   - audio: the sound source, or nil for a picture-only file.
    ///   - duration: how long the media lasts (seconds as an exact ``MediaTime``); positive.
    ///   - pixelFormat: how the pictures are stored; ``PixelFormat/rgb`` by default.
    ///   - videoCodec: how the pictures are encoded; ``VideoCodec/ffv1`` (lossless) by default.
    ///   - url: a `file:` URL ending in `.mov` or `.mkv`, in an existing directory where no file exists yet (nothing
    ///     is overwritten); written through a temporary file beside it, moved into place when complete.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` for no source, a non-positive duration, another file
    ///   extension, a description FFmpeg rejects (with FFmpeg's reason) or a source that ends before `duration`;
    ///   ``ExportError/outputFileExists(_:)``; ``ExportError/outputNotWritable(_:reason:)``;
    ///   ``ExportError/encoderUnavailable(_:)`` when the linked FFmpeg lacks `ffv1` or `pcm_s16le`;
    ///   ``ExportError/writeFailed(_:reason:)``.
    public static func write(
        video: String?, audio: String?, duration: MediaTime, pixelFormat: PixelFormat = .rgb,
        videoCodec: VideoCodec = .ffv1, to url: URL
    ) throws {
        if videoCodec != .ffv1, pixelFormat != .yuv420p {
            throw ExportError.unsupportedSettings("synthetic H.264 and HEVC media needs pixelFormat .yuv420p")
        }
        guard video != nil || audio != nil else {
            throw ExportError.unsupportedSettings("synthetic media needs a video or an audio description")
        }
        guard duration.isNumeric, duration > .zero else {
            throw ExportError.unsupportedSettings("the synthetic media duration \(duration) is not a positive time")
        }
        guard url.isFileURL else { throw ExportError.outputNotWritable(url, reason: "only file URLs can be written") }
        let muxers = ["mov": "mov", "mkv": "matroska"]
        guard let muxer = muxers[url.pathExtension.lowercased()] else {
            throw ExportError.unsupportedSettings(
                "synthetic media is written as .mov or .mkv, not '\(url.lastPathComponent)'")
        }
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExportError.outputNotWritable(url, reason: "the directory \(directory.path) does not exist")
        }
        if FileManager.default.fileExists(atPath: url.path) { throw ExportError.outputFileExists(url) }

        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).splice-\(UUID().uuidString).partial")
        do {
            let writer = try SyntheticMediaWriter(
                video: video, audio: audio, duration: duration, pixelFormat: pixelFormat, videoCodec: videoCodec,
                path: temporary.path,
                muxer: muxer)
            try writer.run()
        } catch {
            unlink(temporary.path)
            throw error
        }
        defer { unlink(temporary.path) }
        if link(temporary.path, url.path) != 0 {
            if errno == EEXIST { throw ExportError.outputFileExists(url) }
            throw ExportError.writeFailed(url, reason: "moving the finished file into place: \(FailureReason.words(errno: errno))")
        }
    }
}

/// Encodes lavfi generator output with FFV1 and PCM into QuickTime or Matroska, for ``SyntheticMedia``, through an
/// ``EncodingMuxer``. Owns every FFmpeg object it uses; runs on the calling thread.
final class SyntheticMediaWriter {
    private let duration: MediaTime
    private let url: URL
    private let muxer: EncodingMuxer
    private let frame: Frame
    private var streams: [Stream] = []

    /// One generated stream: its graph, its encoder, where it stands.
    private final class Stream {
        let graph: FilterGraph
        let codecName: String
        let index: Int
        let isAudio: Bool
        let timeBase: AVRational
        /// Presentation time of the next frame to write; `.positiveInfinity` once finished.
        var position: MediaTime = .zero
        /// Samples written (audio) or frames written (video).
        var count: Int64 = 0

        init(graph: FilterGraph, codecName: String, index: Int, isAudio: Bool, timeBase: AVRational) {
            self.graph = graph
            self.codecName = codecName
            self.index = index
            self.isAudio = isAudio
            self.timeBase = timeBase
        }
    }

    init(video: String?, audio: String?, duration: MediaTime, pixelFormat: SyntheticMedia.PixelFormat,
         videoCodec: SyntheticMedia.VideoCodec = .ffv1, path: String,
         muxer formatName: String) throws {
        self.duration = duration
        url = URL(fileURLWithPath: path)
        do {
            muxer = try EncodingMuxer(path: path, formatName: formatName)
        } catch {
            throw ExportError.outputNotWritable(url, reason: "\(error)")
        }
        frame = try Frame()
        if let video { streams.append(try makeVideoStream(video, pixelFormat: pixelFormat, codec: videoCodec)) }
        if let audio { streams.append(try makeAudioStream(audio)) }
        do {
            try muxer.writeHeader()
        } catch {
            throw ExportError.writeFailed(url, reason: "\(error)")
        }
    }

    private static func graph(_ description: String, tail: String, isAudio: Bool) throws -> FilterGraph {
        do {
            return try FilterGraph(description: description + "," + tail + "[out]", sources: [], sinkLabels: ["out"],
                                   sinkIsAudio: [isAudio], threads: 1)
        } catch {
            throw ExportError.unsupportedSettings(
                "the \(isAudio ? "audio" : "video") description '\(description)' is not a usable lavfi source: \(error)")
        }
    }

    private static func encoder(_ name: String) throws -> Encoder {
        do {
            return try Encoder(name: name)
        } catch {
            throw ExportError.encoderUnavailable(name)
        }
    }

    /// Opens `encoder` and adds its stream to the file.
    private func addStream(_ encoder: Encoder, graph: FilterGraph, isAudio: Bool, options: [String: String] = [:]) throws -> Stream {
        let index: Int
        do {
            index = try muxer.addStream(encoder, options: options)
        } catch {
            throw ExportError.renderingFailed(stage: "opening the \(encoder.codecName) encoder", reason: "\(error)")
        }
        return Stream(graph: graph, codecName: encoder.codecName, index: index, isAudio: isAudio,
                      timeBase: encoder.pointer.pointee.time_base)
    }

    private func makeVideoStream(
        _ description: String, pixelFormat: SyntheticMedia.PixelFormat, codec: SyntheticMedia.VideoCodec
    ) throws -> Stream {
        let tail: String
        switch pixelFormat {
        case .rgb: tail = "format=bgr0"
        case .yuv420p:
            tail = "scale=out_color_matrix=bt709:out_range=limited:flags=accurate_rnd,format=yuv420p,"
                + "setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709"
        }
        let graph = try Self.graph(description, tail: tail, isAudio: false)
        let properties = graph.videoProperties(ofSink: 0)
        let rate = properties.frameRate
        guard rate.num > 0, rate.den > 0 else {
            throw ExportError.unsupportedSettings("the video description '\(description)' states no frame rate (set r=)")
        }
        var options: [String: String] = [:]
        let encoder: Encoder
        switch codec {
        case .ffv1: encoder = try Self.encoder("ffv1")
        case .h264(let parameters):
            encoder = try Self.encoder("libx264")
            options = ["preset": "veryfast", "x264-params": parameters]
        case .hevc(let parameters):
            encoder = try Self.encoder("libx265")
            options = ["preset": "veryfast", "x265-params": "log-level=error:frame-threads=1:pools=none:" + parameters]
            encoder.pointer.pointee.codec_tag = 0x3163_7668  // "hvc1"
        }
        // Test media sets encoder fields EncoderConfiguration does not carry (e.g. a copied channel layout), so it
        // configures the context directly.
        let context = encoder.pointer
        context.pointee.width = Int32(properties.width)
        context.pointee.height = Int32(properties.height)
        context.pointee.pix_fmt = AVPixelFormat(rawValue: properties.pixelFormat)
        context.pointee.time_base = AVRational(num: rate.den, den: rate.num)
        context.pointee.framerate = rate
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        if codec == .ffv1 { context.pointee.gop_size = 1 }  // x264: keyint in its parameters
        context.pointee.thread_count = 1
        if pixelFormat == .yuv420p {
            context.pointee.color_range = AVCOL_RANGE_MPEG
            context.pointee.color_primaries = AVCOL_PRI_BT709
            context.pointee.color_trc = AVCOL_TRC_BT709
            context.pointee.colorspace = AVCOL_SPC_BT709
        }
        return try addStream(encoder, graph: graph, isAudio: false, options: options)
    }

    private func makeAudioStream(_ description: String) throws -> Stream {
        let graph = try Self.graph(description, tail: "aformat=sample_fmts=s16", isAudio: true)
        graph.setFrameSize(1024, forSink: 0)
        let properties = graph.audioProperties(ofSink: 0)
        guard properties.sampleRate > 0 else {
            throw ExportError.unsupportedSettings("the audio description '\(description)' states no sample rate")
        }
        let encoder = try Self.encoder("pcm_s16le")
        let context = encoder.pointer
        context.pointee.sample_rate = Int32(properties.sampleRate)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_S16
        try graph.copyChannelLayout(ofSink: 0, into: &context.pointee.ch_layout)
        context.pointee.time_base = AVRational(num: 1, den: Int32(properties.sampleRate))
        return try addStream(encoder, graph: graph, isAudio: true)
    }

    /// Writes every stream up to `duration`, always advancing the one that is behind, then the trailer.
    func run() throws {
        while let stream = streams.filter({ $0.position < duration }).min(by: { $0.position < $1.position }) {
            try advance(stream)
        }
        for stream in streams { try encode(nil, stream) }
        do {
            try muxer.finish()
        } catch {
            throw ExportError.writeFailed(url, reason: "\(error)")
        }
    }

    /// Pulls one frame of `stream` from its generator, trims it to `duration` and encodes it.
    private func advance(_ stream: Stream) throws {
        let result: FilterGraph.Output
        do {
            result = try stream.graph.pull(from: 0, into: frame)
        } catch {
            throw ExportError.renderingFailed(stage: "generating synthetic media", reason: "\(error)")
        }
        guard result == .frame else {
            throw ExportError.unsupportedSettings(
                "the \(stream.isAudio ? "audio" : "video") source ended at \(stream.position.secondsText), before the "
                    + "requested duration \(duration.secondsText)")
        }
        defer { frame.unref() }
        if stream.isAudio {
            let rate = Int64(stream.timeBase.den)
            let total = duration.convertScale(Int32(rate), method: .towardNegativeInfinity).value
            let samples = min(Int64(frame.sampleCount), total - stream.count)
            guard samples > 0 else {  // a duration shorter than one sample: no sound at all
                stream.position = .positiveInfinity
                return
            }
            frame.pointer.pointee.nb_samples = Int32(samples)
            frame.pts = stream.count
            stream.count += samples
            stream.position = stream.count >= total ? .positiveInfinity : MediaTime(value: stream.count, timescale: Int32(rate))
        } else {
            frame.pts = stream.count
            frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
            stream.count += 1
            let next = MediaTime(value: stream.count * Int64(stream.timeBase.num), timescale: stream.timeBase.den)
            stream.position = next < duration ? next : .positiveInfinity
        }
        try encode(frame, stream)
    }

    /// Encodes `frame` (nil: flushes) on `stream` and writes its packets; a video packet lasts one frame.
    private func encode(_ frame: Frame?, _ stream: Stream) throws {
        do {
            try muxer.encode(frame, stream: stream.index) { packet in
                if packet.pointer.pointee.duration == 0, !stream.isAudio { packet.pointer.pointee.duration = 1 }
            }
        } catch EncodingMuxer.Failure.encoding(let error) {
            throw ExportError.renderingFailed(stage: "encoding with \(stream.codecName)", reason: "\(error)")
        } catch EncodingMuxer.Failure.writing(let error) {
            throw ExportError.writeFailed(url, reason: "\(error)")
        }
    }
}
