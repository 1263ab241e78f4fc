import Composition
import VideoComposition

extension ExportPlanner {
    /// Checks, before anything is opened, that every layer effect drawn in `range` can be drawn on `canvas`: on an
    /// HDR canvas, exposure, temperature, a lookup table, blur and sharpen are drawn at full depth on the HLG- or
    /// PQ-coded signal (``FilterGraphCompiler/effectSteps(for:transform:color:)``); brightness, contrast,
    /// saturation and vignette are refused, their FFmpeg 5.1 filters (`eq`, `vignette`) taking 8-bit pictures only
    /// (``FilterGraphCompiler/highBitDepthRefusal(of:)``). An SDR canvas draws every effect.
    ///
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the effect, the instruction's start time, the layer's
    ///   track and the canvas, with why.
    static func checkEffectsDrawable(
        in videoComposition: MutableVideoComposition, range: TimeRange, canvas: CanvasColor
    ) throws {
        guard canvas.isHDR else { return }
        for instruction in videoComposition.instructions {
            let clipped = instruction.timeRange.intersection(range)
            guard clipped.isValid, !clipped.isEmpty else { continue }
            for layer in instruction.layerInstructions {
                for effect in layer.effects {
                    guard let parameter = effect.parameter,
                          let reason = FilterGraphCompiler.highBitDepthRefusal(of: parameter) else { continue }
                    throw ExportError.unsupportedSettings(
                        "\(reason), so it cannot be drawn on this composition's \(canvas.summary) canvas (the layer of "
                            + "track \(layer.trackID) in the instruction at \(instruction.timeRange.start.secondsText)); "
                            + "export as SDR, or use exposure, temperature, a lookup table, blur or sharpen")
                }
            }
        }
    }
}
