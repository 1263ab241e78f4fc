import Foundation
import SpliceTestSupport
import Testing
@testable import Export
import Splice
import SpliceFFmpeg
import SpliceTesting

/// Effect ramps compiled once: the amounts of `eq`, `exposure`, `colortemperature` and `gblur` are sent to the
/// filters before each frame (``EffectCommand``) instead of building a graph per frame. The output must be the
/// output of the graph-per-frame path, pixel for pixel (the same number reaches each filter), with far fewer graphs.
@Suite("Effect ramps driven by filter commands")
struct EffectRampTests {
    /// A 1 s, 30 fps, 320 × 240 `testsrc2` (edges and colours for the blur and the colour effects), stored as the
    /// canvas's own 4:2:0 so it enters the effects untouched.
    static func source(_ scratch: ScratchDirectory) async throws -> Asset {
        let url = scratch.url.appendingPathComponent("testsrc2.mkv")
        try SyntheticMedia.write(video: "testsrc2=s=320x240:r=30", audio: nil, duration: MediaTime(seconds: 1),
                                 pixelFormat: .yuv420p, to: url)
        return try await Asset.load(from: url)
    }

    /// Every frame of `video` over `composition` through the export's compositor: each picture's digest, and how
    /// many graphs were built. `sendsAmounts` false is the graph-per-frame path (amounts written into the text).
    static func render(_ composition: MutableComposition, _ video: MutableVideoComposition, sendsAmounts: Bool,
                       transform: Bool = false) throws -> (digests: [Int], graphs: Int) {
        var plan = try ExportPlanner.videoPlan(
            composition: composition, tracks: composition.tracks, videoComposition: video,
            range: TimeRange(start: .zero, duration: composition.duration), maximumSize: nil)
        plan.sendsEffectAmounts = sendsAmounts
        let compositor = try VideoCompositor(plan: plan, cancellation: CancellationFlag())
        var digests: [Int] = []
        for index in 0..<plan.frameCount {
            try compositor.render(frame: index) { digests.append(try $0.pictureDigest()) }
        }
        try compositor.finish { digests.append(try $0.pictureDigest()) }
        return (digests, compositor.graphBuilds)
    }

    /// The edit: `asset` for 1 s on a 320 × 240 canvas, its layer carrying `configure`'s effects.
    static func edit(_ asset: Asset, _ configure: (inout VideoCompositionLayerInstruction) -> Void) throws
        -> (MutableComposition, MutableVideoComposition) {
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: asset, at: .zero)
        var layer = VideoCompositionLayerInstruction(trackID: try #require(composition.tracks.first).trackID)
        configure(&layer)
        let video = MutableVideoComposition(
            renderSize: Size(width: 320, height: 240), frameDuration: MediaTime(value: 1, timescale: 30),
            instructions: [VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)),
                                                       layerInstructions: [layer])])
        #expect(video.validate(for: composition).isEmpty)
        return (composition, video)
    }

    static let whole = TimeRange(start: .zero, duration: MediaTime(seconds: 1))

    /// A fade to black over the last half second: the `lut` that blends the layer with black takes three options a
    /// frame (Y', Cb, Cr) but reconfigures once a frame — each reconfiguration rebuilds its 65,536-entry tables.
    @Test func aFadeToBlackReconfiguresItsLutOnceAFrame() async throws {
        let scratch = try ScratchDirectory("fade-commands")
        defer { scratch.remove() }
        let asset = try await Self.source(scratch)
        let (composition, video) = try Self.edit(asset) { layer in
            layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0,
                                 timeRange: TimeRange(start: MediaTime(value: 1, timescale: 2), duration: MediaTime(value: 1, timescale: 2)))
        }
        var plan = try ExportPlanner.videoPlan(
            composition: composition, tracks: composition.tracks, videoComposition: video,
            range: TimeRange(start: .zero, duration: composition.duration), maximumSize: nil)
        plan.sendsEffectAmounts = true
        let compositor = try VideoCompositor(plan: plan, cancellation: CancellationFlag())
        var frames = 0
        for index in 0..<plan.frameCount { try compositor.render(frame: index) { _ in frames += 1 } }
        try compositor.finish { _ in frames += 1 }
        #expect(frames == 30)
        // Frames 15–29 ramp: one command each (the three options sent one by one made 45).
        #expect(compositor.filterReconfigurations == 15, "reconfigurations: \(compositor.filterReconfigurations)")
    }

    /// Six ramps at once on one layer (two `eq`s, a run of RGB effects, an eased blur): every one of the 30 frames
    /// equals the graph-per-frame render, which builds a graph per frame; the driven render builds two (frame 0,
    /// where every ramp is at its neutral start and no effect is drawn, then one for the other 29).
    @Test func aRampKeepsOneGraphAndItsPixels() async throws {
        let scratch = try ScratchDirectory("effect-ramps")
        defer { scratch.remove() }
        let asset = try await Self.source(scratch)
        let (composition, video) = try Self.edit(asset) { layer in
            layer.setEffectRamp(.brightness, from: 0, to: 0.3, timeRange: Self.whole)
            layer.setEffectRamp(.temperature, from: 6500, to: 3000, timeRange: Self.whole)
            layer.setEffectRamp(.exposure, from: 0, to: -1.5, timeRange: Self.whole)
            layer.setEffectRamp(.saturation, from: 1, to: 2, timeRange: Self.whole)
            layer.setEffectRamp(.blur, from: 0, to: 6, timeRange: Self.whole, easing: .easeInOut)
            layer.setEffectRamp(.contrast, from: 1, to: 0.6, timeRange: Self.whole)
        }
        let rebuilt = try Self.render(composition, video, sendsAmounts: false)
        let driven = try Self.render(composition, video, sendsAmounts: true)
        #expect(rebuilt.digests.count == 30 && driven.digests.count == 30, "\(rebuilt.digests.count), \(driven.digests.count)")
        let differing = zip(rebuilt.digests, driven.digests).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.isEmpty, "frames differing from the graph-per-frame render: \(differing)")
        #expect(rebuilt.graphs == 30, "graph-per-frame path built \(rebuilt.graphs) graphs")
        #expect(driven.graphs == 2, "driven path built \(driven.graphs) graphs")
        // The ramp really changes the picture: no two consecutive frames are alike (testsrc2 moves too, so also
        // check that the last frame differs from the same frame without effects).
        let (plain, plainVideo) = try Self.edit(asset) { _ in }
        let untouched = try Self.render(plain, plainVideo, sendsAmounts: true)
        #expect(untouched.digests.last != driven.digests.last)
    }

    /// A blur ramp on a scaled and shifted layer (sigma and sigmaV are the canvas sigma over the layer's scale
    /// along each axis, sent as two commands), with a sharpen ramp after it (`unsharp` has no runtime option: its
    /// amount stays in the text, so that graph is still rebuilt per frame): pixels as the graph-per-frame render.
    @Test func aScaledBlurRampAndAnUncommandableEffect() async throws {
        let scratch = try ScratchDirectory("effect-ramps-scaled")
        defer { scratch.remove() }
        let asset = try await Self.source(scratch)
        let (composition, video) = try Self.edit(asset) { layer in
            layer.setTransform(AffineTransform2D(a: 0.5, b: 0, c: 0, d: 0.75, tx: 41, ty: 17), at: .zero)
            layer.setEffectRamp(.blur, from: 1, to: 5, timeRange: Self.whole)
        }
        let rebuilt = try Self.render(composition, video, sendsAmounts: false)
        let driven = try Self.render(composition, video, sendsAmounts: true)
        #expect(rebuilt.digests == driven.digests)
        #expect(driven.graphs == 1 && rebuilt.graphs == 30, "\(driven.graphs), \(rebuilt.graphs)")

        let (sharpened, sharpenedVideo) = try Self.edit(asset) { layer in
            layer.setEffectRamp(.blur, from: 1, to: 5, timeRange: Self.whole)
            layer.setEffectRamp(.sharpen, from: 0.5, to: 2, timeRange: Self.whole)
        }
        let sharpenRebuilt = try Self.render(sharpened, sharpenedVideo, sendsAmounts: false)
        let sharpenDriven = try Self.render(sharpened, sharpenedVideo, sendsAmounts: true)
        #expect(sharpenRebuilt.digests == sharpenDriven.digests)
        #expect(sharpenDriven.graphs == 30, "unsharp's amount is in the text: \(sharpenDriven.graphs) graphs")
    }

    /// The compiled text of a driven layer: named instances with stand-in amounts, one command per option, the
    /// blur's two divided by the layer's scale along each axis.
    @Test func drivenEffectsAreNamedInstances() throws {
        let layer = LayerConfiguration(
            input: PictureFormat(width: 160, height: 120), transform: AffineTransform2D(a: 0.5, b: 0, c: 0, d: 2, tx: 10, ty: 20),
            crop: nil, opacity: 1,
            effects: [.adjustment(.brightness, 0), .adjustment(.blur, 0), .adjustment(.sharpen, 1)].map(VideoPlan.effectKey),
            sendsEffectAmounts: true)
        let placed = try #require(try FilterGraphCompiler.place(
            layer: layer, canvas: Size(width: 320, height: 240), label: "L0", name: "l0"))
        #expect(placed.chain == "[L0]eq@l0e0=brightness=0.000000,gblur@l0e1=sigma=0.000000:sigmaV=0.000000:steps=6,"
                + "unsharp=lx=5:ly=5:la=1.000000:cx=5:cy=5:ca=0,scale=80:240", "\(placed.chain)")
        #expect(placed.effectCommands == [
            EffectCommand(effect: 0, target: "eq@l0e0", options: [.init(name: "brightness", divisor: 1)]),
            EffectCommand(effect: 1, target: "gblur@l0e1", options: [.init(name: "sigma", divisor: 0.5), .init(name: "sigmaV", divisor: 2)],
                          maximum: 1024),
        ])
    }
}
