import Composition
import Foundation
import VideoComposition

extension ExportPlanner {
    /// The filters beyond the stock ones that rendering `videoComposition` over `range` needs: `drawtext` for a
    /// text overlay, `xfade` for a transition (FFmpeg 4.3 and later), `perspective` (and the stock helpers of ``FilterGraphCompiler/warp``) for a layer whose transform
    /// shears at some time
    /// (``LayerGeometry/general``). Checked before anything is opened or written, since an LGPL build of FFmpeg
    /// lacks the GPL-only `perspective` (FFmpeg builds `perspective` only with `--enable-gpl`).
    ///
    /// A transform ramp is checked at its start, middle and end values: under matrix interpolation the shear
    /// `a·c + b·d` is a quadratic in the eased fraction, so it is zero all along when it is zero at three distinct
    /// fractions; under decomposed interpolation the shear parameter is blended linearly, so it is zero all along
    /// when it is zero at both ends.
    ///
    /// - Parameter range: composition time.
    /// - Returns: filter names, in the order first needed.
    static func requiredFilters(of videoComposition: MutableVideoComposition, in range: TimeRange) -> [String] {
        var names: [String] = []
        func need(_ name: String) { if !names.contains(name) { names.append(name) } }
        for instruction in videoComposition.instructions {
            let clipped = instruction.timeRange.intersection(range)
            guard clipped.isValid, !clipped.isEmpty else { continue }
            if instruction.transition != nil { need("xfade") }
            for layer in instruction.layerInstructions {
                layer.effects.flatMap(FilterGraphCompiler.requiredFilters(of:)).forEach(need)
                for segment in layer.transformSegments(in: clipped) {
                    var samples = [segment.startValue, segment.endValue]
                    if !segment.isConstant {
                        let span = segment.timeRange
                        samples.append(layer.transform(at: span.start + span.duration.multiplied(byRatio: 1, over: 2)))
                    }
                    for sample in samples { LayerGeometry(sample).requiredFilters.forEach(need) }
                }
            }
        }
        for overlay in videoComposition.overlays {
            let clipped = overlay.timeRange.intersection(range)
            if case .text = overlay.content, clipped.isValid, !clipped.isEmpty { need("drawtext") }
        }
        return names
    }
}
