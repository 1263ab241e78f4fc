import Foundation
import Testing
@testable import Export
import Splice
import SpliceFFmpeg

/// An opacity ramp over part of an instruction is compiled as a per-frame blend only while it ramps: before and
/// after it the layer's opacity is a constant, and an opaque layer covering the canvas is the canvas itself (no
/// alpha plane, no `lut`, no blend over the background). Found by Benchmarks/run (W1: a 1 s fade at the end of a
/// 20 s instruction blended all 600 frames).
@Suite("Opacity ramps in the compiled graphs")
struct OpacityRampGraphTests {
    @Test func rampIsBlendedOnlyWhileItRamps() async throws {
        let (composition, video, mix) = try await CanonicalEditTests.makeEdit()
        #expect(video.instructions.count == 1, "the canonical edit has one instruction over 0–8 s")
        let session = AssetExportSession(asset: composition, settings: ExportSettings())
        session.outputURL = URL(fileURLWithPath: "/tmp/unused.mp4")
        session.videoComposition = video
        session.audioMix = mix
        let graphs = try session.filterGraphDescription().components(separatedBy: "# from ").filter { !$0.isEmpty }
        // 0–3 s: clip A opaque (the layer is the base); 3–4 s: the ramp; 4–8 s: clip B opaque, the same graph as 0–3 s.
        #expect(graphs.count == 2, "\(graphs)")
        let opaque = try #require(graphs.first)
        #expect(opaque.hasPrefix("0"))
        #expect(opaque.contains("[L0]null[base0]"), "\(opaque)")
        #expect(!opaque.contains("lut@l0") && !opaque.contains("[bg]"), "\(opaque)")
        let ramp = try #require(graphs.last)
        #expect(ramp.hasPrefix("3"), "\(ramp)")
        // Clip A covers the black canvas: its `lut` blends it with black itself, with no background picture.
        #expect(ramp.contains("[L0]lut@l0=y=(") && !ramp.contains("[bg]"), "\(ramp)")
    }

    /// The `lut` that blends a layer with black gives exactly the pixels of the layer's alpha scaled and `overlay`
    /// over the black background, for every code value (0…255 in each component, outside the nominal range too),
    /// both as declared in the graph and as set by commands.
    @Test(arguments: [0.0, 0.002, 0.3, 0.5, 0.731, 0.9999, 1.0])
    func blendOverBlackIsOverlaysPixels(opacity: Double) throws {
        let overlaid = OpacityTarget(filter: "lut@old", form: .alphaScale)
        let blended = OpacityTarget(filter: "lut@new", form: .overBlack)
        let commanded = OpacityTarget(filter: "lut@cmd", form: .overBlack)
        let size = "128x96"
        let description = [
            "nullsrc=s=\(size):r=25:d=0.04,format=yuv420p,geq=lum='mod(X*7+Y*3\\,256)':cb='mod(X*5+Y\\,256)'"
                + ":cr='mod(Y*11+X*3\\,256)',split=4[p0][p1][p2][src]",
            "color=c=\(RenderColor.black.ffmpegSyntax):s=\(size):r=25:d=0.04,format=rgb24,"
                + "scale=out_color_matrix=bt709:out_range=limited:flags=accurate_rnd,format=yuv420p[bg]",
            "[p0]format=yuva420p,\(overlaid.declaration(opacity: opacity))[lay]",
            "[bg][lay]overlay=x=0:y=0:format=yuv420[old]",
            "[p1]\(blended.declaration(opacity: opacity))[new]",
            "[p2]\(commanded.declaration(opacity: 1))[cmd]",
        ].joined(separator: ";")
        let graph = try FilterGraph(description: description, sources: [], sinkLabels: ["old", "new", "cmd", "src"],
                                    sinkIsAudio: [false, false, false, false], threads: 1)
        for option in commanded.options(opacity: opacity) {
            try graph.sendCommand(target: commanded.filter, command: option.name, argument: option.expression)
        }
        var planes: [[[UInt8]]] = []
        for sink in 0..<4 {
            let frame = try Frame()
            #expect(try graph.pull(from: sink, into: frame) == .frame)
            planes.append((0..<3).map { plane in
                let rows = plane == 0 ? frame.height : frame.height / 2, columns = plane == 0 ? frame.width : frame.width / 2
                let base = frame.plane(plane)!, stride = frame.bytesPerRow(ofPlane: plane)
                return (0..<rows).flatMap { row in (0..<columns).map { base[row * stride + $0] } }
            })
        }
        #expect(Set(planes[3][0]).count == 256 && Set(planes[3][1]).count == 256 && Set(planes[3][2]).count == 256, "the test picture has every code value")
        #expect(planes[1] == planes[0], "declared at opacity \(opacity)")
        #expect(planes[2] == planes[0], "set by commands to opacity \(opacity)")
        if opacity == 0 { #expect(Set(planes[1][0]) == [16] && Set(planes[1][1]) == [128]) }
    }
}
