import Composition
import SpliceFFmpeg
internal import CMedia

/// Converts decoded frames to what an output's settings ask for, through one ``FilterGraph``: pictures with
/// `scale` (libswscale, bicubic; YUV → RGB with the picture's tagged matrix and range) and `format`, sound with
/// `aresample` (libswresample) and `aformat`; and copies each converted frame into a ``SampleBuffer``.
///
/// A graph serves frames of one size and format (pictures) or one rate, format and layout (sound): ``accepts(_:)``
/// tells when a new one is needed (a stream whose picture size changes). Confined to the output's thread.
final class FrameConverter {
    private let graph: FilterGraph
    private let settings: AssetReaderOutputSettings
    private let key: [Int]
    private let sinkTimeBase: AVRational
    /// The output pictures are lent to without a copy (``AssetReaderOutput/alwaysCopiesSampleData`` false); nil:
    /// each picture is copied into bytes its sample buffer owns.
    private let lendingOutput: String?

    /// A converter for frames like `first` (sound with its channel order stated), stamped in `timeBase`; pictures
    /// are lent to `lendingOutput` as views of the converted frames, or copied when it is nil.
    init(first: Frame, settings: AssetReaderOutputSettings, timeBase: AVRational, lendingOutput: String? = nil) throws {
        self.settings = settings
        self.lendingOutput = lendingOutput
        key = Self.key(of: first)
        switch settings {
        case .video(let video):
            let width = video.size?.width ?? first.width, height = video.size?.height ?? first.height
            let source = FilterGraph.VideoSource(
                label: "in", width: first.width, height: first.height, pixelFormat: first.format, timeBase: timeBase,
                sampleAspectRatio: first.pointer.pointee.sample_aspect_ratio.num > 0
                    ? first.pointer.pointee.sample_aspect_ratio : AVRational(num: 1, den: 1))
            graph = try FilterGraph(
                description: "[in]scale=w=\(width):h=\(height):flags=bicubic,format=\(video.pixelFormat.ffmpegName)[out]",
                sources: [.video(source)], sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
        case .audio(let audio):
            let layout = Self.layoutName(first.pointer.pointee.ch_layout)
            let rate = audio.sampleRate ?? first.sampleRate
            let outputLayout = audio.channelCount.map { Self.defaultLayoutName(channels: $0) } ?? layout
            let source = FilterGraph.AudioSource(label: "in", sampleRate: first.sampleRate, sampleFormat: first.format,
                                                 channelLayout: layout, timeBase: timeBase)
            graph = try FilterGraph(
                description: "[in]aresample=\(rate),aformat=sample_fmts=\(audio.sampleFormat.ffmpegName):sample_rates=\(rate)"
                    + ":channel_layouts=\(outputLayout)[out]",
                sources: [.audio(source)], sinkLabels: ["out"], sinkIsAudio: [true], threads: 1)
        }
        sinkTimeBase = graph.timeBase(ofSink: 0)
    }

    /// True when `frame` has the size and format (or rate, format and channels) this graph was built for.
    func accepts(_ frame: Frame) -> Bool { Self.key(of: frame) == key }

    private static func key(of frame: Frame) -> [Int] {
        [frame.width, frame.height, Int(frame.format), frame.sampleRate, frame.channelCount]
    }

    private static func layoutName(_ layout: AVChannelLayout) -> String {
        var layout = layout
        var buffer = [CChar](repeating: 0, count: 128)
        let written = buffer.withUnsafeMutableBufferPointer { av_channel_layout_describe(&layout, $0.baseAddress, 128) }
        guard written > 0 else { return defaultLayoutName(channels: Int(layout.nb_channels)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func defaultLayoutName(channels: Int) -> String {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(max(1, channels)))
        defer { av_channel_layout_uninit(&layout) }
        return layoutName(layout)
    }

    /// Pushes `frame` (its buffers move into the graph) and emits every converted frame; false once `emit` said stop.
    func push(_ frame: Frame, into converted: Frame, emit: (SampleBuffer) -> Bool) throws -> Bool {
        try graph.push(frame, to: 0)
        return try pull(into: converted, emit: emit)
    }

    /// Ends the graph's input and emits what it still holds; false once `emit` said stop.
    func flush(into converted: Frame, emit: (SampleBuffer) -> Bool) throws -> Bool {
        try graph.push(nil, to: 0)
        return try pull(into: converted, emit: emit)
    }

    private func pull(into converted: Frame, emit: (SampleBuffer) -> Bool) throws -> Bool {
        while try graph.pull(from: 0, into: converted) == .frame {
            if try !emit(sample(of: converted)) { return false }
        }
        return true
    }

    /// Copies a converted frame into a sample buffer (times exact in the sink's time base), or — pictures lent
    /// without a copy — moves its buffers into the sample buffer's view (`frame` is left empty).
    private func sample(of frame: Frame) throws -> SampleBuffer {
        let presentation = MediaTime(pts: frame.pts, timeBase: sinkTimeBase) ?? .invalid
        switch settings {
        case .video(let video):
            let duration = MediaTime(pts: cmedia_AVFrame_duration(frame.pointer), timeBase: sinkTimeBase) ?? .zero
            let format = FormatDescription(mediaType: .video, codecName: "rawvideo", timeScale: sinkTimeBase.den,
                                           dimensions: Size(width: frame.width, height: frame.height))
            let picture = if let lendingOutput {
                try Self.lentPixelBuffer(of: frame, format: video.pixelFormat, output: lendingOutput)
            } else {
                Self.pixelBuffer(of: frame, format: video.pixelFormat)
            }
            return SampleBuffer(presentationTime: presentation, duration: duration, sampleCount: 1,
                                formatDescription: format, imageBuffer: picture)
        case .audio(let audio):
            let channels = frame.channelCount, count = frame.sampleCount
            let byteCount = count * channels * audio.sampleFormat.bytesPerSample
            let bytes = frame.plane(0).map { Array(UnsafeBufferPointer(start: $0, count: byteCount)) } ?? []
            let buffer = AudioBuffer(sampleFormat: audio.sampleFormat, sampleRate: frame.sampleRate,
                                     channelCount: channels, bytes: bytes)
            let format = FormatDescription(
                mediaType: .audio, codecName: audio.sampleFormat == .float32 ? "pcm_f32le" : "pcm_s16le",
                timeScale: sinkTimeBase.den, sampleRate: frame.sampleRate, channelCount: channels)
            return SampleBuffer(presentationTime: presentation,
                                duration: MediaTime(value: Int64(count), timescale: Int32(frame.sampleRate)),
                                sampleCount: count, formatDescription: format, audioBuffer: buffer)
        }
    }

    /// The picture's visible pixels, rows tightly packed, with its colour tags.
    static func pixelBuffer(of frame: Frame, format: PixelBuffer.PixelFormat) -> PixelBuffer {
        let width = frame.width, height = frame.height
        let planes = format.planeShapes(width: width, height: height).enumerated().map { index, shape in
            let count = shape.rowBytes * shape.rows
            guard let source = frame.plane(index) else {
                return PixelBuffer.Plane(bytes: [UInt8](repeating: 0, count: count), bytesPerRow: shape.rowBytes, rows: shape.rows)
            }
            let stride = frame.bytesPerRow(ofPlane: index)
            // Written once, row by row, without zero-filling first.
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { destination, initialized in
                for row in 0..<shape.rows {
                    (destination.baseAddress! + row * shape.rowBytes).initialize(from: source + row * stride, count: shape.rowBytes)
                }
                initialized = count
            }
            return PixelBuffer.Plane(bytes: bytes, bytesPerRow: shape.rowBytes, rows: shape.rows)
        }
        return PixelBuffer(width: width, height: height, pixelFormat: format, planes: planes, color: colour(of: frame, format: format))
    }

    /// The picture as views of the frame's planes (their strides as FFmpeg laid them out), with its colour tags;
    /// the frame's buffers move into the view and `frame` is left empty.
    static func lentPixelBuffer(of frame: Frame, format: PixelBuffer.PixelFormat, output: String) throws -> PixelBuffer {
        let width = frame.width, height = frame.height, color = colour(of: frame, format: format)
        let shapes = format.planeShapes(width: width, height: height)
        let strides = shapes.indices.map { frame.bytesPerRow(ofPlane: $0) }
        let view = try SampleDataView(takingFrom: frame, output: output)
        let planes = shapes.enumerated().map { index, shape in
            PixelBuffer.Plane(view: view, plane: index, bytesPerRow: strides[index], rows: shape.rows)
        }
        return PixelBuffer(width: width, height: height, pixelFormat: format, planes: planes, color: color)
    }

    /// The frame's colour tags by FFmpeg's names; RGB is full range; the bit depth is the format's.
    static func colour(of frame: Frame, format: PixelBuffer.PixelFormat) -> ColorProperties {
        func name(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "unknown" }
        let isRGB = !format.isYCbCr
        let range: ColorProperties.Range = isRGB ? .full
            : frame.colorRange == AVCOL_RANGE_JPEG.rawValue ? .full
            : frame.colorRange == AVCOL_RANGE_MPEG.rawValue ? .limited : .unspecified
        return ColorProperties(
            range: range,
            primaries: name(av_color_primaries_name(AVColorPrimaries(rawValue: frame.colorPrimaries))),
            transfer: name(av_color_transfer_name(AVColorTransferCharacteristic(rawValue: frame.colorTransfer))),
            matrix: isRGB ? "gbr" : name(av_color_space_name(AVColorSpace(rawValue: frame.colorSpace))),
            bitDepth: format.bitDepth)
    }
}
