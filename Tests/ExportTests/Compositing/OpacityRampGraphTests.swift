import Foundation
import Testing
@testable import Export
import Splice

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
        #expect(ramp.contains("[bg]null[base0]") && ramp.contains("lut@l0"), "\(ramp)")
    }
}
