import Composition
import Foundation

extension TextOverlayConfiguration {
    /// The source and drawing steps of a text laid out in font runs (``TextLayout``): one `drawtext` per run on a
    /// transparent RGBA picture of `size`, each at the whole-pixel position one `drawtext` drawing the whole text
    /// would give that run's glyphs.
    ///
    /// The block is placed by the single-font rules of `drawtext(in:)`: `x` is the frame's left edge plus the
    /// padding, centred (`minX + (width - text_w) / 2`) or the right edge minus the padding minus `text_w`; `y`
    /// centres `text_h` in the frame; both truncated to whole pixels as `drawtext` truncates its `x` and `y`.
    /// A background box is the box one `drawtext` draws (the block grown by the padding on every side) with the alpha it leaves on a transparent picture (the colour's
    /// alpha times the opacity, blended over alpha 0, i.e. squared); it is a `color` source padded with the
    /// transparent colour, since FFmpeg 5.1's `drawbox` cannot write alpha to RGBA (`replace=1` crashes).
    func runSteps(_ layout: TextLayout, in frame: Rect, size: Size, transparent: RenderColor,
                  frameRate: AVRationalKey) throws -> [String] {
        let f = FilterGraphCompiler.format
        // The numbers as the expression drawtext evaluates carries them (six decimals).
        func value(_ number: Double) -> Double { Double(f(number)) ?? number }
        func truncated(_ number: Double) -> Int { Int(max(min(number, 2_147_483_647), -2_147_483_648)) }
        let width = Double(layout.width), height = Double(layout.height)
        let blockX: Int
        switch style.alignment {
        case "left": blockX = truncated(value(frame.minX + style.padding))
        case "right": blockX = truncated(value(frame.maxX - style.padding) - width)
        default: blockX = truncated(value(frame.minX) + (value(frame.width) - width) / 2)
        }
        let blockY = truncated(value(frame.minY) + (value(frame.height) - height) / 2)

        let rate = "r=\(frameRate.num)/\(frameRate.den)"
        var steps = ["color=c=\(transparent.ffmpegSyntax):s=\(size.width)x\(size.height):\(rate)", "format=rgba"]
        if let background = style.background {
            let border = try FilterGraphCompiler.pixels(style.padding)
            let boxLeft = blockX - border, boxTop = blockY - border
            let boxRight = boxLeft + layout.width + 2 * border, boxBottom = boxTop + layout.height + 2 * border
            let left = max(boxLeft, 0), top = max(boxTop, 0)
            let right = min(boxRight, size.width), bottom = min(boxBottom, size.height)
            if left < right, top < bottom {
                steps = [
                    "color=c=\(Self.boxColor(background, opacity: opacity)):s=\(right - left)x\(bottom - top):\(rate)",
                    "format=rgba",
                    "pad=\(size.width):\(size.height):\(left):\(top):color=\(transparent.ffmpegSyntax)",
                ]
            }
        }
        for run in layout.runs {
            steps.append("drawtext=" + [
                "fontfile=\(FilterGraphCompiler.escape(run.fontFile))",
                "text=\(FilterGraphCompiler.escape(run.text))",
                "expansion=none",
                "text_shaping=0",
                "fontsize=\(f(style.fontSize))",
                "fontcolor=\(style.color.ffmpegSyntax)",
                "alpha=\(f(opacity))",
                "x=\(blockX + run.x)",
                "y=\(blockY + layout.top(of: run))",
            ].joined(separator: ":"))
        }
        return steps
    }

    /// `0xRRGGBBAA` with the alpha `drawtext`'s box leaves on a transparent RGBA picture: its colour's alpha byte
    /// (truncated, as FFmpeg parses `@alpha`) scaled by the `alpha` option (`256 × opacity`, 255 at 1), then blended
    /// over alpha 0 with itself as the weight.
    static func boxColor(_ color: RenderColor, opacity: Double) -> String {
        func byte(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
        let clamped = min(max(color.alpha, 0), 1)
        let parsed = Int(255 * (Double(String(format: "%.4f", clamped)) ?? clamped))
        let scale = opacity >= 1 ? 255 : opacity <= 0 ? 0 : Int(256 * opacity)
        let alpha = parsed * scale / 255
        return String(format: "0x%02X%02X%02X%02X", byte(color.red), byte(color.green), byte(color.blue), alpha * alpha / 255)
    }
}
