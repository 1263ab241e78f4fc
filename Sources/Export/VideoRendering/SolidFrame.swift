import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Solid frames in the canvas format.
enum SolidFrame {
    /// One `size` frame of `color`, yuv420p limited BT.709: `color` draws RGB, `scale` converts it with the BT.709
    /// matrix, `setparams` tags it. (Letting `color` draw YUV itself would use its fixed BT.601 coefficients: a
    /// background of (51, 102, 204) came back as (44, 103, 208) once read as BT.709.)
    static func make(color: RenderColor, size: Size) throws -> Frame {
        let description = "color=c=\(color.ffmpegSyntax):s=\(size.width)x\(size.height):r=1:d=1,format=rgb24,"
            + "scale=out_color_matrix=bt709:out_range=limited:flags=accurate_rnd,format=yuv420p,"
            + "setparams=range=tv:colorspace=bt709[out]"
        let graph = try FilterGraph(description: description, sources: [], sinkLabels: ["out"], sinkIsAudio: [false], threads: 1)
        let frame = try Frame()
        guard try graph.pull(from: 0, into: frame) == .frame else {
            throw ExportError.renderingFailed(stage: "making the background", reason: "the color source gave no frame")
        }
        return frame
    }
}
