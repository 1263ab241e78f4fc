import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// The conversions around a custom compositor (``VideoCompositing``): decoded source pictures to the compositor's
/// ``VideoFrame`` format, and the compositor's picture back to a ``Frame`` the compositor's graph takes.
///
/// Into the compositor: the picture is first brought into the canvas exactly as the built-in path brings a layer
/// (``FilterGraphCompiler/normalizationSteps(for:canvas:keepAlpha:chromaSubsampled:)``: the source's matrix and
/// range, tone mapping or BT.2408 mapping between SDR and HDR), then converted as ``RGBAConverter`` converts a
/// canvas: `.rgba8` with `scale` (BT.709 limited → full-range R'G'B', bicubic chroma, accurate rounding; an RGB source
/// goes straight to `rgba`), `.rgba64` with `zscale` (the canvas's limited-range Y'CbCr → full-range 16-bit R'G'B' in
/// the canvas's primaries and transfer: BT.2020 HLG or PQ on an HDR canvas). One graph per source format.
///
/// Back: an `.rgba8` picture is referenced, without a copy, as an `rgb0` frame (alpha ignored: the canvas is
/// opaque), which the graph brings into the canvas like any RGB layer (`scale=out_color_matrix=bt709:out_range=limited`);
/// an `.rgba64` picture is converted here by the inverse `zscale` into the canvas's own format and tagged with its colour
/// (`setparams`), so the graph takes it as a native layer, untouched (the graph treats untagged RGB as SDR).
///
/// Confined to the render thread, like its ``VideoCompositor``.
final class CustomPictureConverter {
    private var graphs: [PictureFormat: FilterGraph] = [:]
    private var canvasGraph: (size: Size, graph: FilterGraph)?
    private let output: Frame
    private var sequence: Int64 = 0
    /// The canvas the pictures are composited on.
    let color: CanvasColor
    /// The compositor's ``VideoCompositing/sourcePixelFormat``.
    let pixelFormat: VideoFrame.PixelFormat

    init(color: CanvasColor = .standard, pixelFormat: VideoFrame.PixelFormat = .rgba8) throws {
        output = try Frame()
        self.color = color
        self.pixelFormat = pixelFormat
    }

    /// The decoded `frame`, whose colour is described by `format` (its tags as the track corrects them), as a
    /// ``pixelFormat`` picture of the frame's coded size (`.rgba64` in the canvas's dynamic range).
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
        return try VideoFrame(rgbaFrame: output, dynamicRange: pixelFormat == .rgba64 ? color.dynamicRange : .sdr)
    }

    /// The compositor's `image` in a new frame of its size: its pixels referenced where they are, as `rgb0` for
    /// `.rgba8` (alpha ignored), or converted to the canvas's own tagged format for `.rgba64`.
    /// - Throws: `FFmpegError` (ENOMEM) when the picture cannot be referenced; ``ExportError/renderingFailed(stage:reason:)``
    ///   when the conversion into the canvas fails.
    func frame(from image: VideoFrame) throws -> Frame {
        let wide = image.pixelFormat == .rgba64
        let frame = try Frame()
        try frame.referencePicture(width: image.width, height: image.height,
                                   pixelFormat: wide ? AV_PIX_FMT_RGBA64LE : AV_PIX_FMT_RGB0,
                                   planes: [(image.pixels, image.bytesPerRow)])
        return wide ? try canvasFrame(from: frame, size: Size(width: image.width, height: image.height)) : frame
    }

    /// An `rgba64le` picture (full-range R'G'B' of the canvas's colour) in the canvas's format: `zscale` to
    /// limited-range Y'CbCr with the canvas's matrix, then tagged (`setparams`).
    private func canvasFrame(from frame: Frame, size: Size) throws -> Frame {
        let stage = "converting the custom compositor's 16-bit picture into the canvas"
        if canvasGraph?.size != size {
            let c = color
            let description = "[in]format=gbrp16le,zscale=pin=\(c.primariesName):tin=\(c.transferName):min=gbr:rin=full"
                + ":p=\(c.primariesName):t=\(c.transferName):m=\(c.matrixName):r=limited:filter=bicubic:dither=none"
                + ",format=\(c.pixelFormatName(alpha: false)),\(c.setparams)[out]"
            do {
                canvasGraph = (size, try FilterGraph(
                    description: description,
                    sources: [.video(.init(label: "in", width: size.width, height: size.height,
                                           pixelFormat: AV_PIX_FMT_RGBA64LE.rawValue, timeBase: AVRational(num: 1, den: 1)))],
                    sinkLabels: ["out"], sinkIsAudio: [false], threads: 1))
            } catch {
                throw ExportError.renderingFailed(stage: "building \(description)", reason: "\(error)")
            }
        }
        guard let graph = canvasGraph?.graph else { throw ExportError.renderingFailed(stage: stage, reason: "no graph") }
        let converted = try Frame()
        frame.pts = sequence
        sequence += 1
        do {
            try graph.push(frame, to: 0, keepReference: true)
            guard try graph.pull(from: 0, into: converted) == .frame else {
                throw ExportError.renderingFailed(stage: stage, reason: "no frame")
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError.renderingFailed(stage: stage, reason: "\(error)")
        }
        return converted
    }

    private func graph(for format: PictureFormat) throws -> FilterGraph {
        if let graph = graphs[format] { return graph }
        var steps: [String]
        if pixelFormat == .rgba64 {
            let c = color
            steps = FilterGraphCompiler.normalizationSteps(for: format, canvas: c, keepAlpha: false)
            steps += ["zscale=pin=\(c.primariesName):tin=\(c.transferName):min=\(c.matrixName):rin=limited:p=\(c.primariesName)"
                      + ":t=\(c.transferName):r=full:filter=bicubic:dither=none", "format=gbrp16le", "format=rgba64le"]
        } else if format.isRGB {
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
