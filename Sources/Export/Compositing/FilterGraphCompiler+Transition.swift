import SpliceFFmpeg
import Composition
import Foundation

extension FilterGraphCompiler {
    /// The chains drawing a transition: the outgoing layer (A) and the incoming layer (B) each placed over the
    /// background as a whole canvas (a layer that exactly covers the canvas is used as it is), both in the canvas's
    /// 4:4:4 format (`xfade` takes no 4:2:0), joined by `xfade` at the configured progress, and back to the canvas
    /// format. The result is labelled `xfade` for the overlays above it.
    ///
    /// `xfade` has no easing and computes its progress from the frames' timestamps:
    /// `1 − (pts − first_pts − offset) / duration` (libavfilter 8.44, `vf_xfade.c`), where 1 means all A. The graph of
    /// a transition frame is built for that one frame (the progress is part of the ``GraphConfiguration``), so the
    /// first and only frame has `pts = first_pts`; with both inputs in microseconds (`settb=1/1000000`),
    /// `duration=1` and `offset=−p` the filter's progress is exactly `1 − p` to the microsecond (p rounded to 1e−6,
    /// below a 1/4000 pixel at 4K). The eased `p` comes from the model's evaluator, so the easing is exact and the
    /// image generator, which compiles the same configuration, draws the same picture.
    static func transitionBase(_ configuration: GraphConfiguration, _ transition: TransitionConfiguration) throws
        -> (chains: [String], inputs: [(CompiledGraph.Input, PictureFormat)],
            opacityTargets: [CompiledGraph.Input: OpacityTarget], base: String) {
        let canvas = configuration.canvas
        let color = configuration.color
        var chains: [String] = []
        var inputs: [(CompiledGraph.Input, PictureFormat)] = []
        var opacityTargets: [CompiledGraph.Input: OpacityTarget] = [:]
        // `xfade`'s black and white are code values 0 and the maximum, i.e. full range: the styles that show them
        // run in full range so that they dip to true black (limited range would go below it and clip).
        let fullRange = ["fadeblack", "fadewhite", "rectcrop", "circlecrop"].contains(transition.filterName)
        let wide = (fullRange ? "scale=in_range=limited:out_range=full," : "")
            + "format=\(color.pixelFormatName(alpha: false, subsampled: false)),settb=1/1000000"
        let back = (fullRange ? "scale=in_range=full:out_range=limited," : "") + "format=\(color.pixelFormatName(alpha: false))"
        let sides = [transition.outgoing, transition.incoming]

        var backgroundUses: [Int] = []
        for (side, index) in sides.enumerated() {
            let layer = configuration.layers[index]
            if coversCanvas(layer, canvas: canvas) {
                inputs.append((.layer(index), layer.input))
                let steps = try coveringSteps(layer, canvas: canvas, color: color).steps
                chains.append("[L\(index)]" + (steps + [wide]).joined(separator: ",") + "[tx\(side)]")
            } else if let placed = try place(layer: layer, canvas: canvas, color: color, label: "L\(index)", name: "l\(index)") {
                inputs.append((.layer(index), layer.input))
                if let target = placed.opacityTarget { opacityTargets[.layer(index)] = target }
                let even = evenPlacement(x: placed.x, y: placed.y, color: color)
                chains.append(placed.chain + even.steps + "[tlay\(side)]")
                chains.append("[tbg\(side)][tlay\(side)]overlay=x=\(even.x):y=\(even.y):format=\(color.overlayFormat),"
                              + "\(wide)[tx\(side)]")
                backgroundUses.append(side)
            } else {
                // An invisible layer (cropped or scaled to nothing): its side is the background alone.
                chains.append("[tbg\(side)]\(wide)[tx\(side)]")
                backgroundUses.append(side)
            }
        }
        if !backgroundUses.isEmpty {
            let background = PictureFormat(width: canvas.width, height: canvas.height)
            inputs.insert((.background, background), at: 0)
            let steps = normalizationSteps(for: background, canvas: color, keepAlpha: false)
            let outputs = backgroundUses.map { "[tbg\($0)]" }.joined()
            chains.insert("[bg]" + (steps + ["split=\(backgroundUses.count)"]).joined(separator: ",") + outputs, at: 0)
        }
        let progress = min(1, max(0, transition.progress))
        let frameTimeBase = "\(configuration.frameRate.den)/\(configuration.frameRate.num)"
        chains.append("[tx0][tx1]xfade=transition=\(transition.filterName):duration=1:offset=-\(format(progress)),"
                      + "\(back),settb=\(frameTimeBase)[xfade]")
        return (chains, inputs, opacityTargets, "xfade")
    }
}
