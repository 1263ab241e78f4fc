import Composition
import Foundation

/// A text overlay in a graph configuration: its style and its frame (render pixels) and opacity (0…1) for the frames
/// it renders.
struct TextOverlayConfiguration: Hashable {
    var style: TextStyle
    var frame: Rect
    var opacity: Double

    /// The chain drawing the text, and the canvas position (pixels) of its output; nil when the frame lies off the
    /// canvas or is empty.
    ///
    /// `drawtext` draws on a transparent RGBA picture of the frame's size (FFmpeg's `color` source at the graph's
    /// frame rate), which `scale` converts to 4:2:0 with the BT.709 matrix, as every other picture; the caller
    /// overlays it. Drawing on the YUV canvas instead would convert the RGB text and box colours with drawtext's
    /// fixed BT.601 coefficients (FFmpeg 5.1), off by up to 5 levels in V for the BT.709 output (0xFFC020 gave
    /// V 167 instead of 162). The transparent pixels carry the box colour (or the text colour without a box), so the
    /// partly covered pixels along glyph edges blend towards the right colour and 4:2:0 averaging does not grey them.
    ///
    /// Like a CATextLayer, the text is clipped to its frame (and to the canvas). A text that needs several fonts is
    /// drawn by one `drawtext` per font run on the same picture (``runSteps(_:in:size:transparent:frameRate:)``).
    ///
    /// - Parameters:
    ///   - canvas: the render canvas (pixels).
    ///   - color: the canvas's colour space (the drawn RGBA text is converted into it as image overlays are).
    ///   - frameRate: the graph's frame rate (the inverse of its buffer sources' time base), for the `color` source.
    /// - Throws: ``FilterGraphCompilerError/geometryOutOfRange(_:)`` for a frame beyond ±2^31 pixels.
    func layer(canvas: Size, color: CanvasColor = .standard, frameRate: AVRationalKey) throws -> (chain: String, x: Int, y: Int)? {
        let left = max(try FilterGraphCompiler.pixels(frame.minX, .down), 0)
        let top = max(try FilterGraphCompiler.pixels(frame.minY, .down), 0)
        let right = min(try FilterGraphCompiler.pixels(frame.maxX, .up), canvas.width)
        let bottom = min(try FilterGraphCompiler.pixels(frame.maxY, .up), canvas.height)
        guard left < right, top < bottom else { return nil }
        let local = Rect(x: frame.minX - Double(left), y: frame.minY - Double(top), width: frame.width, height: frame.height)
        var transparent = style.background ?? style.color
        transparent.alpha = 0
        let size = Size(width: right - left, height: bottom - top)
        let drawing: [String]
        if case .runs(let layout) = style.font {
            drawing = try runSteps(layout, in: local, size: size, transparent: transparent, frameRate: frameRate)
        } else {
            let source = "color=c=\(transparent.ffmpegSyntax):s=\(size.width)x\(size.height):r=\(frameRate.num)/\(frameRate.den)"
            drawing = [source, "format=rgba", try drawtext(in: local)]
        }
        let chain = (drawing + FilterGraphCompiler.graphicSteps(canvas: color)).joined(separator: ",")
        return (chain, left, top)
    }

    private var fontOption: String {
        switch style.font {
        case .file(let path): return "fontfile=\(FilterGraphCompiler.escape(path))"
        case .family(let family): return "font=\(FilterGraphCompiler.escape(family))"
        // Not reached: a text in runs is drawn by `runSteps`, one drawtext per run with its own font file.
        case .runs(let layout): return "fontfile=\(FilterGraphCompiler.escape(layout.runs.first?.fontFile ?? ""))"
        }
    }

    /// The text's left edge in `frame`: its left edge plus the padding, centred, or its right edge minus the padding.
    private func horizontalPosition(in frame: Rect) -> String {
        let f = FilterGraphCompiler.format
        switch style.alignment {
        case "left": return "\(f(frame.minX + style.padding))"
        case "right": return "\(f(frame.maxX - style.padding))-text_w"
        default: return "\(f(frame.minX))+(\(f(frame.width))-text_w)/2"
        }
    }

    /// `drawtext` in `frame` (pixels of the picture it draws on; aligned horizontally, centred vertically), with
    /// FFmpeg's text expansion off and the text escaped for filter syntax.
    private func drawtext(in frame: Rect) throws -> String {
        var options = [
            fontOption,
            "text=\(FilterGraphCompiler.escape(style.text))",
            "expansion=none",
            "fontsize=\(FilterGraphCompiler.format(style.fontSize))",
            "fontcolor=\(style.color.ffmpegSyntax)",
            "alpha=\(FilterGraphCompiler.format(opacity))",
            "x=\(horizontalPosition(in: frame))",
            "y=\(FilterGraphCompiler.format(frame.minY))+(\(FilterGraphCompiler.format(frame.height))-text_h)/2",
        ]
        if let background = style.background {
            options += ["box=1", "boxcolor=\(background.ffmpegSyntax)", "boxborderw=\(try FilterGraphCompiler.pixels(style.padding))"]
        }
        return "drawtext=" + options.joined(separator: ":")
    }
}
