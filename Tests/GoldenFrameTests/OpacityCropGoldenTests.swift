import Foundation
import Splice
import SpliceTesting
import Testing
import SpliceTestSupport

/// Opacity, crop and background colour, with the exact colour fixtures (`Fixtures/media/solid`, pure red / green /
/// blue FFV1) and the quadrants source: the colour at every pixel away from an edge follows from the model's
/// `opacity(at:)`, `cropRectangle(at:)` and background.
@Suite("Golden frames: opacity, crop, background")
struct OpacityCropGoldenTests {
    typealias S = GoldenScenario

    /// Renders `asset` through `layer` at `time` over `background`, checks it against the model, then the golden.
    func check(_ name: String, asset: Asset, picture: @escaping Picture, layer: VideoCompositionLayerInstruction,
               at time: MediaTime, background: Color? = nil, backgroundRGB: RGB = .black) async throws -> VideoFrame {
        let (composition, ids) = try S.composition([.init(asset: asset)])
        var layer = layer
        layer.trackID = ids[0]
        let frame = try await S.render(composition, S.videoComposition([layer], background: background), at: time)
        let crop = layer.cropRectangle(at: time)
        let model = AnalyticCanvas(size: S.canvas, background: backgroundRGB, layers: [
            ModelLayer(picture: crop.map { Pictures.cropped(picture, to: $0) } ?? picture,
                       transform: layer.transform(at: time), opacity: layer.opacity(at: time)),
        ])
        model.expectMatches(frame)
        S.expectGolden(frame, name)
        return frame
    }

    static let threeQuarters = AffineTransform2D(scaleX: 0.75, y: 0.75).concatenating(AffineTransform2D(translationX: 40, y: 30))

    /// Pure red at opacity 0.5 over black: (127.5, 0, 0) ± 2 (DESIGN.md's example).
    @Test func opacityHalf() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(Self.threeQuarters, at: .zero)
        layer.setOpacity(0.5, at: .zero)
        let frame = try await check("opacity-0.5", asset: try await S.solid("red"), picture: Pictures.solid(.red, S.canvas),
                                    layer: layer, at: MediaTime(seconds: 1))
        expectPixel(frame, 160, 120, RGB(127.5, 0, 0), tolerance: 2)
        expectPixel(frame, 10, 10, .black, tolerance: 2)
    }

    /// A ramp 1 → 0 over [0, 2 s), at 0.5 s: opacity 0.75 over black, on the quadrants.
    @Test func opacityRampMidway() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(Self.threeQuarters, at: .zero)
        layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        let time = MediaTime(value: 1, timescale: 2)
        #expect(layer.opacity(at: time) == 0.75)
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let frame = try await check("opacity-ramp", asset: try await S.quadrants(in: scratch), picture: Pictures.quadrants(S.canvas),
                                    layer: layer, at: time)
        expectPixel(frame, 100, 80, RGB(191.25, 0, 0), tolerance: 2)      // red quadrant
        expectPixel(frame, 220, 160, RGB(191.25, 191.25, 191.25), tolerance: 2)  // white quadrant
    }

    /// A crop of the quadrants (source pixels 40…240 × 30…180) at identity: the cropped part stays where it was.
    @Test func crop() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setCropRectangle(Rect(x: 40, y: 30, width: 200, height: 150), at: .zero)
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let frame = try await check("crop", asset: try await S.quadrants(in: scratch), picture: Pictures.quadrants(S.canvas),
                                    layer: layer, at: MediaTime(seconds: 1))
        expectPixel(frame, 42, 32, .red, tolerance: 3)
        expectPixel(frame, 237, 177, .white, tolerance: 3)
        expectPixel(frame, 37, 100, .black, tolerance: 3)
        expectPixel(frame, 243, 100, .black, tolerance: 3)
    }

    /// A crop ramp from the full frame to the centre half, at its middle: source pixels 40…280 × 30…210, placed
    /// by a half-size transform.
    @Test func cropRampMidway() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setCropRectangleRamp(fromStartCropRectangle: Rect(x: 0, y: 0, width: 320, height: 240),
                                   toEndCropRectangle: Rect(x: 80, y: 60, width: 160, height: 120),
                                   timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        layer.setTransform(AffineTransform2D(scaleX: 0.5, y: 0.5).concatenating(AffineTransform2D(translationX: 80, y: 60)), at: .zero)
        #expect(layer.cropRectangle(at: MediaTime(seconds: 1)) == Rect(x: 40, y: 30, width: 240, height: 180))
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        _ = try await check("crop-ramp", asset: try await S.quadrants(in: scratch), picture: Pictures.quadrants(S.canvas),
                            layer: layer, at: MediaTime(seconds: 1))
    }

    /// The instruction's background colour (0.2, 0.4, 0.8) = (51, 102, 204) around a half-size red picture.
    @Test func instructionBackground() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(AffineTransform2D(scaleX: 0.5, y: 0.5).concatenating(AffineTransform2D(translationX: 80, y: 60)), at: .zero)
        let frame = try await check("background", asset: try await S.solid("red"), picture: Pictures.solid(.red, S.canvas), layer: layer,
                                    at: MediaTime(seconds: 1), background: Color(red: 0.2, green: 0.4, blue: 0.8),
                                    backgroundRGB: RGB(51, 102, 204))
        expectPixel(frame, 5, 5, RGB(51, 102, 204), tolerance: 3)
        expectPixel(frame, 160, 120, .red, tolerance: 3)
    }
}
