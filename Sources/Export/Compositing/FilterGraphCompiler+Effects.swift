import Composition
import Foundation
import VideoComposition
internal import CMedia

extension FilterGraphCompiler {
    /// The filters drawing a layer's effects (``LayerConfiguration/effects``, evaluated for this graph's frames) and
    /// the picture format they leave, for the rest of the layer's chain to start from.
    ///
    /// Where they sit: after the crop and the source's conversion into the canvas's colour space (BT.709 limited, at
    /// the source's resolution), before the transform and the opacity. So every effect sees canvas-space code values
    /// whatever the source's matrix or range, a vignette is centred on the (cropped) picture, and the image
    /// generator, which compiles the same configuration, draws what export writes.
    ///
    /// Each effect is one FFmpeg filter, in list order, at the value the model gives for the frame:
    /// - brightness, contrast, saturation: one `eq` each, on the 4:2:0 picture itself. FFmpeg 5.1's `eq` (gamma 1)
    ///   maps luma with integers: c = ⌊4096·contrast⌋, b = ⌊(⌊100·brightness + 100⌋·511) / 200⌋ − 128 − c/32,
    ///   Y′ = (Y·c >> 12) + b clipped to 0…255, the parameters rounded to `float` first; saturation s maps chroma
    ///   the same way with contrast s and brightness 0 (so s = 0 gives chroma 127, not 128);
    /// - exposure (`exposure`, on 32-bit float R′G′B′: values × 2^stops), temperature (`colortemperature`,
    ///   8-bit R′G′B′, 16-bit on HDR) and a lookup table (`lut3d`, 8-bit R′G′B′, 16-bit on HDR, tetrahedral): the
    ///   picture is converted to planar RGB with the canvas matrix (`scale=in_color_matrix=bt709:in_range=limited`,
    ///   `bt2020` on HDR), once for a run of such effects, and back to the canvas format after it;
    /// - blur: `gblur` with 6 steps (within 3 code levels of a true Gaussian across a hard edge), `sigma` and
    ///   `sigmaV` in source pixels: the canvas sigma divided by the length the transform gives one source pixel
    ///   along x and along y (exact for scale and rotation; for a shear, per axis);
    /// - sharpen: `unsharp` with a 5 × 5 luma mask of the given amount (chroma untouched);
    /// - vignette: `vignette` with the angle, centred on the picture (not on a picture with an alpha channel:
    ///   FFmpeg 5.1's `vignette` has no alpha format).
    ///
    /// - Parameters:
    ///   - layer: the layer, with its effects and input format.
    ///   - transform: the layer's transform after its crop (source pixels → canvas pixels), for the blur's scale.
    ///   - color: the canvas. On an HDR canvas (10-bit BT.2100) the effects run on the HLG- or PQ-coded signal,
    ///     as they run on gamma-coded BT.709 on SDR (no conversion to linear light): exposure multiplies the coded
    ///     R′G′B′ by 2^stops in float, temperature and a lookup table run on 16-bit R′G′B′ (BT.2020 matrix), blur
    ///     and sharpen on the 10-bit picture itself; brightness, contrast, saturation and vignette are refused
    ///     (``highBitDepthRefusal(of:)``; the planner refuses them first).
    /// - Returns: no steps and the input format unchanged when the layer has no effect to draw.
    /// - Throws: ``FilterGraphCompilerError/effectNotRenderable(_:)`` for an 8-bit-only effect on an HDR canvas, a
    ///   vignette on a picture with alpha, or a blur whose sigma in source pixels exceeds `gblur`'s 1024.
    static func effectSteps(for layer: LayerConfiguration, transform: AffineTransform2D, color: CanvasColor)
        throws -> (steps: [String], format: PictureFormat) {
        guard !layer.effects.isEmpty else { return ([], layer.input) }
        let refusals = layer.effects.compactMap { effect -> String? in
            guard case .adjustment(let parameter, _) = effect else { return nil }
            return highBitDepthRefusal(of: parameter)
        }
        if color.isHDR, let refusal = refusals.first {
            throw FilterGraphCompilerError.effectNotRenderable("\(refusal); this canvas is \(color.summary)")
        }
        let alpha = layer.input.hasAlpha
        let native = color.pixelFormatName(alpha: alpha)
        var steps = normalizationSteps(for: layer.input, canvas: color, keepAlpha: alpha)
        let output = effectOutputFormat(width: layer.input.width, height: layer.input.height, alpha: alpha, color: color)

        var inRGB: String?  // the planar RGB format the picture is in, or nil when it is in the canvas format
        func toRGB(_ target: String) {
            if inRGB == nil {
                steps.append("scale=in_color_matrix=\(color.scaleMatrixName):in_range=limited")
            }
            if inRGB != target { steps.append("format=\(target)") }
            inRGB = target
        }
        func toCanvas() {
            guard inRGB != nil else { return }
            steps.append("scale=out_color_matrix=\(color.scaleMatrixName):out_range=limited")
            steps.append("format=\(native)")
            inRGB = nil
        }
        for effect in layer.effects {
            switch effect {
            case .adjustment(let parameter, let value):
                switch parameter {
                case .brightness, .contrast, .saturation:
                    toCanvas()
                    steps.append("eq=\(parameter.rawValue)=\(format(value))")
                case .exposure:
                    toRGB(alpha ? "gbrapf32le" : "gbrpf32le")
                    steps.append("exposure=exposure=\(format(value))")
                case .temperature:
                    toRGB(effectRGBFormat(alpha: alpha, color: color))
                    steps.append("colortemperature=temperature=\(format(value))")
                case .blur:
                    toCanvas()
                    let t = transform
                    let alongX = (t.a * t.a + t.b * t.b).squareRoot(), alongY = (t.c * t.c + t.d * t.d).squareRoot()
                    guard alongX > 0, alongY > 0 else { continue }
                    let sigmaX = value / alongX, sigmaY = value / alongY
                    guard sigmaX <= 1024, sigmaY <= 1024 else {
                        throw FilterGraphCompilerError.effectNotRenderable(
                            "a blur of \(value) canvas pixels on a layer scaled by \(min(alongX, alongY)) needs a "
                                + "sigma of \(max(sigmaX, sigmaY)) source pixels; gblur takes at most 1024")
                    }
                    steps.append("gblur=sigma=\(format(sigmaX)):sigmaV=\(format(sigmaY)):steps=6")
                case .sharpen:
                    toCanvas()
                    steps.append("unsharp=lx=5:ly=5:la=\(format(value)):cx=5:cy=5:ca=0")
                case .vignette:
                    guard !alpha else {
                        throw FilterGraphCompilerError.effectNotRenderable(
                            "a vignette on a picture with an alpha channel (FFmpeg 5.1's vignette has no alpha format)")
                    }
                    toCanvas()
                    steps.append("vignette=angle=\(format(value))")
                }
            case .lookupTable(let url):
                toRGB(effectRGBFormat(alpha: alpha, color: color))
                steps.append("lut3d=file=\(escape(url.path)):interp=tetrahedral")
            }
        }
        toCanvas()
        return (steps, output)
    }

    /// The filters only effects need beyond the stock ones, by effect (checked by the planner before rendering).
    static func requiredFilters(of effect: VideoEffect) -> [String] {
        switch effect {
        case .adjustment(let parameter, _): return [parameter.filterName]
        case .lookupTable: return ["lut3d"]
        }
    }
}
