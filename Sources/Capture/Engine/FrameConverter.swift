import SpliceFFmpeg
internal import CMedia

/// Turns a device's decoded pictures into another size, pixel format and orientation on the session's thread
/// (swscale and `transpose`/`hflip`/`vflip` through a ``FilterGraph``). The graph is built for the first picture and
/// rebuilt when the input's size or format, or the wanted output, changes.
final class FrameConverter {
    /// What the converter produces.
    struct Target: Hashable {
        /// Size before orientation, nil for the input's own.
        var width: Int?
        var height: Int?
        var pixelFormat: AVPixelFormat
        var orientation: FrameOrientation
        /// `out_range` for swscale (`pc` full range, `tv` limited).
        var fullRange = true

        static func == (lhs: Target, rhs: Target) -> Bool {
            lhs.width == rhs.width && lhs.height == rhs.height && lhs.pixelFormat == rhs.pixelFormat
                && lhs.orientation == rhs.orientation && lhs.fullRange == rhs.fullRange
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(width); hasher.combine(height); hasher.combine(pixelFormat.rawValue)
            hasher.combine(orientation); hasher.combine(fullRange)
        }
    }

    private var graph: FilterGraph?
    private var key: (width: Int, height: Int, format: Int32, target: Target)?
    let output: Frame

    init() throws { output = try Frame() }

    /// Converts `frame` (left untouched) into ``output``, which holds the result until the next call.
    /// - Throws: ``FFmpegError`` from building or running the graph.
    func convert(_ frame: Frame, to target: Target) throws -> Frame {
        if graph == nil || key?.width != frame.width || key?.height != frame.height || key?.format != frame.format
            || key?.target != target {
            graph = try Self.makeGraph(for: frame, target: target)
            key = (frame.width, frame.height, frame.format, target)
        }
        guard let graph else { throw FFmpegError.posix(EINVAL) }
        try graph.push(frame, to: 0, keepReference: true)
        guard try graph.pull(from: 0, into: output) == .frame else { throw FFmpegError.posix(EAGAIN) }
        return output
    }

    private static func makeGraph(for frame: Frame, target: Target) throws -> FilterGraph {
        var (width, height) = (target.width ?? frame.width, target.height ?? frame.height)
        if target.width != nil, target.height == nil { height = (frame.height * width / max(frame.width, 1) + 1) / 2 * 2 }
        if target.height != nil, target.width == nil { width = (frame.width * height / max(frame.height, 1) + 1) / 2 * 2 }
        var filters = ["scale=\(width):\(height):out_range=\(target.fullRange ? "pc" : "tv")"]
        if !target.orientation.filterChain.isEmpty { filters.append(target.orientation.filterChain) }
        let name = av_get_pix_fmt_name(target.pixelFormat).map { String(cString: $0) } ?? "rgba"
        filters.append("format=\(name)")
        return try FilterGraph(
            description: "[in]" + filters.joined(separator: ",") + "[out]",
            sources: [.video(.init(label: "in", width: frame.width, height: frame.height, pixelFormat: frame.format,
                                   timeBase: AVRational(num: 1, den: 1_000_000)))],
            sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
    }

    /// The picture in `frame` as packed rows of `bytesPerPixel` bytes (plane 0 without its padding).
    static func packedPixels(of frame: Frame, bytesPerPixel: Int) -> [UInt8] {
        let rowBytes = frame.width * bytesPerPixel, stride = frame.bytesPerRow(ofPlane: 0)
        guard let base = frame.plane(0) else { return [] }
        var pixels = [UInt8](repeating: 0, count: rowBytes * frame.height)
        pixels.withUnsafeMutableBufferPointer { destination in
            guard let to = destination.baseAddress else { return }
            for row in 0..<frame.height { (to + row * rowBytes).update(from: base + row * stride, count: rowBytes) }
        }
        return pixels
    }
}
