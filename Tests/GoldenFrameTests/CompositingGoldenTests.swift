import Foundation
import Splice
import SpliceTesting
import Testing
import SpliceTestSupport

/// Several tracks at once: stacking order, a cross-dissolve, and `MutableVideoComposition(propertiesOf:)` fitting
/// sources of other shapes into the canvas.
@Suite("Golden frames: stacking, dissolve, aspect fit")
struct CompositingGoldenTests {
    typealias S = GoldenScenario

    static func placed(_ scale: Double, _ x: Double, _ y: Double) -> AffineTransform2D {
        AffineTransform2D(scaleX: scale, y: scale).concatenating(AffineTransform2D(translationX: x, y: y))
    }

    /// Red (first layer instruction = top-most) over green, half size, overlapping on 80×60 pixels: the overlap is
    /// red; with the order swapped it is green (checked against the model, no golden).
    @Test func twoLayerStackingOrder() async throws {
        let (composition, ids) = try S.composition([.init(asset: try await S.solid("red")), .init(asset: try await S.solid("green"))])
        var red = VideoCompositionLayerInstruction(trackID: ids[0])
        red.setTransform(Self.placed(0.5, 40, 30), at: .zero)
        var green = VideoCompositionLayerInstruction(trackID: ids[1])
        green.setTransform(Self.placed(0.5, 120, 90), at: .zero)
        let redModel = ModelLayer(picture: Pictures.solid(.red, S.canvas), transform: red.transform(at: .zero))
        let greenModel = ModelLayer(picture: Pictures.solid(.green, S.canvas), transform: green.transform(at: .zero))

        let redOnTop = try await S.render(composition, S.videoComposition([red, green]), at: MediaTime(seconds: 1))
        AnalyticCanvas(size: S.canvas, background: .black, layers: [redModel, greenModel]).expectMatches(redOnTop)
        expectPixel(redOnTop, 160, 120, .red)  // in the overlap
        S.expectGolden(redOnTop, "stacking")

        let greenOnTop = try await S.render(composition, S.videoComposition([green, red]), at: MediaTime(seconds: 1))
        AnalyticCanvas(size: S.canvas, background: .black, layers: [greenModel, redModel]).expectMatches(greenOnTop)
        expectPixel(greenOnTop, 160, 120, .green)
    }

    /// Quadrants on [0, 2 s), pure blue on [1 s, 3 s), `VideoCompositionInstruction.crossDissolve` over the overlap;
    /// at 1.5 s the outgoing quadrants are at opacity 0.5 over the blue: red becomes (127.5, 0, 127.5).
    @Test func crossDissolveMidway() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let (composition, ids) = try S.composition([
            .init(asset: try await S.quadrants(in: scratch)),
            .init(asset: try await S.solid("blue"), at: MediaTime(seconds: 1)),
        ])
        #expect(composition.duration == MediaTime(seconds: 3))
        var first = VideoCompositionLayerInstruction(trackID: ids[0])
        first.setTransform(.identity, at: .zero)
        var second = VideoCompositionLayerInstruction(trackID: ids[1])
        second.setTransform(.identity, at: MediaTime(seconds: 2))
        let dissolve = VideoCompositionInstruction.crossDissolve(
            from: ids[0], to: ids[1], timeRange: TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1)))
        let video = MutableVideoComposition(renderSize: S.canvas, frameDuration: S.frameDuration, instructions: [
            VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)), layerInstructions: [first]),
            dissolve,
            VideoCompositionInstruction(timeRange: TimeRange(start: MediaTime(seconds: 2), duration: MediaTime(seconds: 1)), layerInstructions: [second]),
        ])
        #expect(video.validate(for: composition).isEmpty)
        let time = MediaTime(value: 3, timescale: 2)
        let outgoing = try #require(dissolve.layerInstruction(forTrackID: ids[0]))
        #expect(outgoing.opacity(at: time) == 0.5)
        let frame = try await S.render(composition, video, at: time)
        AnalyticCanvas(size: S.canvas, background: .black, layers: [
            ModelLayer(picture: Pictures.quadrants(S.canvas), transform: .identity, opacity: 0.5),
            ModelLayer(picture: Pictures.solid(.blue, S.canvas), transform: .identity),
        ]).expectMatches(frame)
        expectPixel(frame, 80, 60, RGB(127.5, 0, 127.5), tolerance: 2)
        expectPixel(frame, 240, 180, RGB(127.5, 127.5, 255), tolerance: 2)
        S.expectGolden(frame, "cross-dissolve")
    }

    /// `propertiesOf` over a 320×240 clip, then a 60×120 portrait clip, then a 160×90 wide one: the canvas is
    /// 320×240 and each later clip is scaled by 2 and centred — pillar-boxed 120×240 at x 100, letter-boxed 320×180
    /// at y 30.
    @Test func mixedSizesAspectFitted() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let portraitSize = Size(width: 60, height: 120), wideSize = Size(width: 160, height: 90)
        let second = MediaTime(seconds: 1)
        let (composition, ids) = try S.composition([
            .init(asset: try await S.quadrants(in: scratch), duration: second),
            .init(asset: try await S.quadrants(in: scratch, size: portraitSize, name: "portrait"), at: second, duration: second),
            .init(asset: try await S.quadrants(in: scratch, size: wideSize, name: "wide"), at: MediaTime(seconds: 2), duration: second),
        ])
        let video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.renderSize == S.canvas)
        #expect(video.frameDuration == S.frameDuration, "the synthetic .mov sources have frames of exactly 1/30 s")

        for (index, size, name, expected) in [
            (1, portraitSize, "aspect-fit-portrait", Self.placed(2, 100, 0)),
            (2, wideSize, "aspect-fit-wide", Self.placed(2, 0, 30)),
        ] {
            let time = MediaTime(value: Int64(2 * index + 1), timescale: 2)
            let layer = try #require(video.instruction(at: time)?.layerInstruction(forTrackID: ids[index]))
            #expect(layer.transform(at: time) == expected)
            let frame = try await S.render(composition, video, at: time)
            AnalyticCanvas(size: S.canvas, background: .black, layers: [
                ModelLayer(picture: Pictures.quadrants(size), transform: layer.transform(at: time)),
            ]).expectMatches(frame)
            S.expectGolden(frame, name)
        }
    }
}
