import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// The conversions around a custom compositor (``VideoCompositing``): decoded source pictures to RGBA8
/// ``VideoFrame``s, and the compositor's RGBA8 picture back to a ``Frame`` the compositor's graph takes.
///
/// Into RGBA: the picture is first brought into the 8-bit SDR canvas exactly as the built-in path brings a layer
/// (``FilterGraphCompiler/normalizationSteps(for:canvas:keepAlpha:chromaSubsampled:)``: the source's matrix and
/// range, tone mapping for HDR), then converted as ``RGBAConverter`` converts a canvas (BT.709 limited → full-range
/// R'G'B', bicubic chroma, accurate rounding); an RGB source goes straight to `rgba`. One graph per source format.
/// Back: the RGBA bytes are copied into an `rgb0` frame (alpha dropped: the canvas is opaque), which the graph
/// brings into the canvas like any RGB layer (`scale=out_color_matrix=bt709:out_range=limited`).
///
/// Confined to the render thread, like its ``VideoCompositor``.
final class CustomPictureConverter {
    private var graphs: [PictureFormat: FilterGraph] = [:]
    private let output: Frame
    private var sequence: Int64 = 0

    init() throws {
        output = try Frame()
    }

    /// The decoded `frame`, whose colour is described by `format` (its tags as the track corrects them), as an
    /// RGBA8 picture of the frame's coded size.
    /// - Throws: ``ExportError/renderingFailed(stage:reason:)`` when the conversion graph cannot be built or run.
    func rgba(_ frame: Frame, format: PictureFormat) throws -> VideoFrame {
        let graph = try self.graph(for: format)
        frame.pts = sequence
        sequence += 1
        do {
            try graph.push(frame, to: 0, keepReference: true)
            guard try graph.pull(from: 0, into: output) == .frame else {
                throw ExportError.renderingFailed(stage: "converting a source picture to RGBA", reason: "no frame")
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError.renderingFailed(stage: "converting a source picture to RGBA", reason: "\(error)")
        }
        defer { output.unref() }
        return try VideoFrame(rgbaFrame: output)
    }

    /// The compositor's `image` in a new `rgb0` frame of its size (alpha dropped).
    /// - Throws: `FFmpegError` (ENOMEM) when the picture cannot be allocated.
    func frame(from image: VideoFrame) throws -> Frame {
        let frame = try Frame()
        try frame.allocatePicture(width: image.width, height: image.height, pixelFormat: AV_PIX_FMT_RGB0)
        guard let destination = frame.plane(0) else {
            throw ExportError.renderingFailed(stage: "taking the custom compositor's picture", reason: "no pixel plane")
        }
        let lineSize = frame.bytesPerRow(ofPlane: 0), rowBytes = image.width * 4
        image.pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }  // never: a VideoFrame has at least one pixel
            for row in 0..<image.height {
                (destination + row * lineSize).update(
                    from: base.advanced(by: row * image.bytesPerRow).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
        }
        return frame
    }

    private func graph(for format: PictureFormat) throws -> FilterGraph {
        if let graph = graphs[format] { return graph }
        var steps: [String]
        if format.isRGB {
            steps = ["format=rgba"]
        } else {
            steps = FilterGraphCompiler.normalizationSteps(for: format, canvas: .standard, keepAlpha: format.hasAlpha)
            steps += ["scale=in_color_matrix=bt709:in_range=limited:out_range=full:flags=bicubic+accurate_rnd+full_chroma_int",
                      "format=rgba"]
        }
        let description = "[in]" + steps.joined(separator: ",") + "[out]"
        let graph: FilterGraph
        do {
            graph = try FilterGraph(
                description: description,
                sources: [.video(.init(label: "in", width: format.width, height: format.height,
                                       pixelFormat: format.pixelFormat, timeBase: AVRational(num: 1, den: 1)))],
                sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
        } catch {
            throw ExportError.renderingFailed(stage: "building the source conversion graph \(description)", reason: "\(error)")
        }
        if graphs.count >= 8 { graphs.removeAll() }  // sources that change size midway: keep the cache bounded
        graphs[format] = graph
        return graph
    }
}
