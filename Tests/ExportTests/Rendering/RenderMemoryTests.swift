import Foundation
import SpliceTestSupport
import Testing
@testable import Export
import Splice
import SpliceFFmpeg
import SpliceTesting

/// What the compositor keeps between frames: a source's decoder is closed before the next source opens, and a
/// background picture is kept only while a graph draws it.
@Suite("Render memory")
struct RenderMemoryTests {
    /// A 0.5 s, 30 fps, 320 × 240 picture from `source` (a lavfi video source), as 4:2:0 FFV1.
    static func clip(_ scratch: ScratchDirectory, _ name: String, _ source: String) async throws -> Asset {
        let url = scratch.url.appendingPathComponent("\(name).mkv")
        try SyntheticMedia.write(video: "\(source)=s=320x240:r=30", audio: nil, duration: MediaTime(value: 1, timescale: 2),
                                 pixelFormat: .yuv420p, to: url)
        return try await Asset.load(from: url)
    }

    /// Clip A (`testsrc2`) and clip B (`smptebars`), in a scratch folder of their own.
    static func twoClips() async throws -> (a: Asset, b: Asset, scratch: ScratchDirectory) {
        let scratch = try ScratchDirectory("render-memory")
        return (try await clip(scratch, "a", "testsrc2"), try await clip(scratch, "b", "smptebars"), scratch)
    }

    static let half = TimeRange(start: .zero, duration: MediaTime(value: 1, timescale: 2))

    /// `clips` back to back on one track of a 320 × 240 canvas (the default video composition, its background
    /// `background`: black unless given), each its first 0.5 s unless `ranges` says which part; `fade` ramps the
    /// first clip's opacity 1 → 0 over its last 0.25 s.
    static func render(_ clips: [Asset], ranges: [TimeRange]? = nil, fade: Bool, background: Color? = nil) throws
        -> (compositor: VideoCompositor, frames: Int, heldAt: [Int]) {
        var composition = MutableComposition()
        for (i, clip) in clips.enumerated() {
            try composition.insertTimeRange(ranges?[i] ?? half, of: clip, at: composition.duration)
        }
        var video = MutableVideoComposition(propertiesOf: composition)
        if let background { video.backgroundColor = background }
        if fade {
            for i in video.instructions.indices {
                for j in video.instructions[i].layerInstructions.indices {
                    video.instructions[i].layerInstructions[j].setOpacityRamp(
                        fromStartOpacity: 1, toEndOpacity: 0,
                        timeRange: TimeRange(start: MediaTime(value: 1, timescale: 4), duration: MediaTime(value: 1, timescale: 4)))
                    video.instructions[i].layerInstructions[j].setOpacity(1, at: MediaTime(value: 1, timescale: 2))
                }
            }
        }
        let plan = try ExportPlanner.videoPlan(
            composition: composition, tracks: composition.tracks, videoComposition: video,
            range: TimeRange(start: .zero, duration: composition.duration), maximumSize: nil)
        let compositor = try VideoCompositor(plan: plan, cancellation: CancellationFlag())
        var frames = 0
        var heldAt: [Int] = []
        for index in 0..<plan.frameCount {
            try compositor.render(frame: index) { _ in frames += 1 }
            heldAt.append(compositor.heldBackgrounds)
        }
        try compositor.finish { _ in frames += 1 }
        return (compositor, frames, heldAt)
    }

    /// Two sources one after the other: the first one's decoder is closed before the second opens (one reader at
    /// a time). A source shown again from where it stopped stays open beside the one between (two at once); one
    /// shown again from its start is reopened then (one at a time: going back seeks anyway).
    @Test func aFinishedSourceClosesBeforeTheNextOpens() async throws {
        let (a, b, _) = try await Self.twoClips()
        let cut = try Self.render([a, b], fade: false)
        #expect(cut.frames == 30)
        #expect(cut.compositor.trackRenderers.values.map(\.mostReadersOpen) == [1])
        let quarter = MediaTime(value: 1, timescale: 4)
        let on = try Self.render([a, b, a], ranges: [TimeRange(start: .zero, duration: quarter), Self.half,
                                                     TimeRange(start: quarter, duration: quarter)], fade: false)
        #expect(on.frames == 30)
        #expect(on.compositor.trackRenderers.values.map(\.mostReadersOpen) == [2])
        let again = try Self.render([a, b, a], fade: false)
        #expect(again.frames == 45)
        #expect(again.compositor.trackRenderers.values.map(\.mostReadersOpen) == [1])
    }

    /// A fade over a grey background keeps one background picture while it is drawn (frames 8–14: the ramp from
    /// 0.25 s); the next clip covers the canvas, and the picture is freed with the fade's graph. Over the default
    /// black background no background picture is made at all: the layer's own `lut` blends it with black.
    @Test func aBackgroundIsKeptOnlyWhileDrawn() async throws {
        let (a, b, _) = try await Self.twoClips()
        let grey = try Self.render([a, b], fade: true, background: Color(red: 0.5, green: 0.5, blue: 0.5))
        #expect(grey.frames == 30)
        #expect(grey.heldAt == Array(repeating: 0, count: 8) + Array(repeating: 1, count: 7) + Array(repeating: 0, count: 15))
        let black = try Self.render([a, b], fade: true)
        #expect(black.frames == 30)
        #expect(black.heldAt == Array(repeating: 0, count: 30))
    }
}
