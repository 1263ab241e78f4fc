import Composition
import Foundation

extension FilterGraphCompiler {
    /// Transparent pixels (each side) around a warped layer, so that `perspective`, which clamps samples at its
    /// input's border, repeats transparency rather than smearing the picture outwards.
    static let warpMargin = 2

    /// The chain drawing a layer of ``LayerGeometry/general`` geometry (shear) with FFmpeg's `perspective`, or nil
    /// when the sheared picture covers no canvas pixel (thinner than half a pixel, or off the canvas).
    ///
    /// The picture (cropped already by `steps`) is brought to 4:4:4 with alpha (BT.709 limited) and scaled in opacity
    /// by `lut`, as the other paths. It is then placed in a frame large enough for both itself and the canvas region
    /// the layer covers, with a margin of at least ``warpMargin`` pixels: the colour planes are extended from the
    /// picture's edge into the margin (`fillborders=mode=smear`) while the alpha plane is 0 there (`alphaextract` of a
    /// transparent `pad`, `alphamerge`). `perspective=sense=destination` then warps it with four corner points
    /// computed here exactly from the matrix. Because the colour next to the edge is the edge's own colour, the
    /// interpolated edge pixels take the picture's colour at partial alpha: no dark fringe in luma, and no chroma
    /// pulled towards grey when 4:2:0 averages an edge pixel with its transparent neighbours — the job
    /// premultiplied alpha does in RGB. (Premultiplying in YUV does not work here: FFmpeg 5.1's
    /// `overlay=format=yuv420:alpha=premultiplied` was measured to give `main·(1 − α) + overlay − 16` in luma, 16
    /// levels dark, and the fix-up `lut` would clip white at 235.) The result sits at an even canvas position.
    ///
    /// The corners are constant: a transform that moves changes the graph configuration, and the compositor builds
    /// a new graph for it (VideoCompositor), so no `eval=frame` expression is needed.
    ///
    /// Pixel convention: `perspective` samples its input at integer coordinates for pixel indices, where the model
    /// puts pixel centres at index + ½; the corner of the padded input at index point `p` therefore goes to
    /// `T(p + ½ − margin) − origin − ½`.
    ///
    /// - Parameters:
    ///   - transform: source pixels (after crop) → canvas pixels.
    ///   - width: the (cropped) picture width in pixels; `height` likewise.
    ///   - canvas: the render canvas (pixels), to which the drawn region is clipped.
    ///   - steps: the filters already applied to the picture (its crop).
    ///   - name: the layer's instance suffix (`l0`), naming its opacity `lut` and its internal links.
    /// On a 10-bit canvas the warp itself runs at 8 bits: FFmpeg 5.1's `perspective` takes 8-bit formats only, so a
    /// sheared layer of an HDR composition is quantised to 8 bits (the only place an HDR picture is).
    ///
    /// - Throws: ``FilterGraphCompilerError/geometryOutOfRange(_:)`` for a position beyond ±2^31 pixels.
    static func warp(
        layer: LayerConfiguration, transform t: AffineTransform2D, width: Int, height: Int, canvas: Size,
        color: CanvasColor = .standard, steps: [String], label: String, name: String
    ) throws -> PlacedLayer? {
        let w = Double(width), h = Double(height)
        // The distance between the parallelogram's opposite sides, the smaller one: the pixels it is thick. Below
        // half a pixel nothing is drawn, as a scale that rounds a side to 0 pixels draws nothing.
        let side1 = (t.a * t.a + t.b * t.b).squareRoot() * w, side2 = (t.c * t.c + t.d * t.d).squareRoot() * h
        let area = abs(t.determinant) * w * h
        guard area.isFinite, area > 0, area / max(side1, side2) >= 0.5 else { return nil }

        // The canvas pixels the layer can touch: its picture grown by the one source pixel that bilinear sampling
        // reaches beyond it, clipped to the canvas.
        let reach = t.apply(to: Rect(x: -1, y: -1, width: w + 2, height: h + 2))
        guard reach.minX.isFinite, reach.maxX.isFinite, reach.minY.isFinite, reach.maxY.isFinite else {
            throw FilterGraphCompilerError.geometryOutOfRange(reach.minX.isFinite ? reach.minY : reach.minX)
        }
        let left = max(reach.minX.rounded(.down), 0), right = min(reach.maxX.rounded(.up), Double(canvas.width))
        let top = max(reach.minY.rounded(.down), 0), bottom = min(reach.maxY.rounded(.up), Double(canvas.height))
        guard left < right, top < bottom else { return nil }
        let originX = Int(left) - Int(left) % 2, originY = Int(top) - Int(top) % 2
        func even(_ value: Int) -> Int { value + value % 2 }
        let margin = warpMargin
        let frameWidth = even(max(Int(right) - originX, width + 2 * margin))
        let frameHeight = even(max(Int(bottom) - originY, height + 2 * margin))

        func corner(_ x: Int, _ y: Int) -> Point {
            let p = t.apply(to: Point(x: Double(x) + 0.5 - Double(margin), y: Double(y) + 0.5 - Double(margin)))
            return Point(x: p.x - Double(originX) - 0.5, y: p.y - Double(originY) - 0.5)
        }
        let corners = [corner(0, 0), corner(frameWidth, 0), corner(0, frameHeight), corner(frameWidth, frameHeight)]
        let points = corners.enumerated().map { index, point in "x\(index)=\(format(point.x)):y\(index)=\(format(point.y))" }

        var chain = steps
        chain += normalizationSteps(for: layer.input, canvas: color, keepAlpha: true, chromaSubsampled: false)
        var opacityTarget: OpacityTarget?
        if layer.opacity != 1 {
            let target = OpacityTarget(filter: "lut@\(name)", form: .alphaScale)
            chain.append(target.declaration(opacity: layer.opacity ?? 1))
            if layer.opacity == nil { opacityTarget = target }
        }
        let pad = "pad=w=\(frameWidth):h=\(frameHeight):x=\(margin):y=\(margin)"
        let smear = "fillborders=left=\(margin):right=\(frameWidth - width - margin):top=\(margin)"
            + ":bottom=\(frameHeight - height - margin):mode=smear"
        let text = "[\(label)]" + chain.joined(separator: ",") + ",split[\(name)c][\(name)a];"
            + "[\(name)a]\(pad):color=black@0,alphaextract[\(name)m];"
            + "[\(name)c]\(pad),\(smear)[\(name)e];"
            + "[\(name)e][\(name)m]alphamerge,"
            + "perspective=" + points.joined(separator: ":") + ":interpolation=linear:sense=destination,format=\(color.pixelFormatName(alpha: true))"
        return PlacedLayer(chain: text, x: originX, y: originY, opacityTarget: opacityTarget)
    }
}
