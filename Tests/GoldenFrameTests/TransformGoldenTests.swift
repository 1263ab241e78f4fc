import Foundation
import Splice
import SpliceTesting
import Testing
import SpliceTestSupport

/// Layer transforms, rendered through the export compositor: a quadrants source (red, green / blue, white) drawn
/// through the transform the model gives, checked against the analytic model at every pixel far from an edge and
/// against its golden.
@Suite("Golden frames: transforms")
struct TransformGoldenTests {
    typealias S = GoldenScenario

    /// Renders the quadrants source through `layer` at `time` and checks it against the model and the golden.
    func check(_ name: String, layer: VideoCompositionLayerInstruction, at time: MediaTime = MediaTime(seconds: 1),
               minimumChecked: Int = 100) async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let source = try await S.quadrants(in: scratch)
        let (composition, ids) = try S.composition([.init(asset: source)])
        var layer = layer
        layer.trackID = ids[0]
        let frame = try await S.render(composition, S.videoComposition([layer]), at: time)
        let model = AnalyticCanvas(size: S.canvas, background: .black, layers: [
            ModelLayer(picture: Pictures.quadrants(S.canvas), transform: layer.transform(at: time), opacity: layer.opacity(at: time)),
        ])
        model.expectMatches(frame, minimumChecked: minimumChecked)
        S.expectGolden(frame, name)
    }

    @Test func translation() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(AffineTransform2D(translationX: 60, y: 40), at: .zero)
        try await check("translation", layer: layer)
    }

    @Test func scale() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(AffineTransform2D(scaleX: 0.5, y: 0.75).concatenating(AffineTransform2D(translationX: 80, y: 30)), at: .zero)
        try await check("scale", layer: layer)
    }

    /// A quarter turn clockwise (on screen) of the half-size picture, centred: the red quadrant ends top-right.
    @Test func rotation90() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        let transform = AffineTransform2D(scaleX: 0.5, y: 0.5)
            .concatenating(AffineTransform2D(rotationAngle: .pi / 2))
            .concatenating(AffineTransform2D(translationX: 220, y: 40))
        #expect(transform == AffineTransform2D(a: 0, b: 0.5, c: -0.5, d: 0, tx: 220, ty: 40))
        layer.setTransform(transform, at: .zero)
        try await check("rotation-90", layer: layer)
    }

    /// 30° clockwise about the centre of the half-size picture, which stays at the canvas centre.
    @Test func rotation30() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(Self.centred(AffineTransform2D(scaleX: 0.5, y: 0.5).concatenating(AffineTransform2D(rotationAngle: .pi / 6))), at: .zero)
        try await check("rotation-30", layer: layer)
    }

    /// Non-uniform scale with a vertical flip, then a rotation of −20°, then a translation: any affine transform
    /// without shear.
    @Test func arbitraryAffine() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        let linear = AffineTransform2D(scaleX: 0.6, y: -0.45).concatenating(AffineTransform2D(rotationAngle: -20 * .pi / 180))
        layer.setTransform(Self.centred(linear).concatenating(AffineTransform2D(translationX: 12, y: -6)), at: .zero)
        try await check("affine", layer: layer)
    }

    /// A ramp from the half-size picture at the top-left to the quarter-turned one of ``rotation90()``, at its middle.
    /// Matrix interpolation (AVFoundation's) averages the matrices: a 45° turn shrunk to √2/4.
    @Test func transformRampMatrixMidway() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0, transformInterpolation: .matrix)
        layer.setTransformRamp(fromStart: Self.rampStart, toEnd: Self.rampEnd, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        let middle = layer.transform(at: MediaTime(seconds: 1))
        #expect(middle == AffineTransform2D(a: 0.25, b: 0.25, c: -0.25, d: 0.25, tx: 110, ty: 20))
        try await check("transform-ramp-matrix", layer: layer)
    }

    /// The same ramp with decomposed interpolation about the picture's centre: a rigid 45° turn at full half size,
    /// the centre half-way along the straight line between its start and end positions.
    @Test func transformRampDecomposedMidway() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0, transformInterpolation: .decomposed)
        layer.decomposedInterpolationPivot = Point(x: 160, y: 120)
        layer.setTransformRamp(fromStart: Self.rampStart, toEnd: Self.rampEnd, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        let middle = layer.transform(at: MediaTime(seconds: 1))
        let scale = (middle.a * middle.a + middle.b * middle.b).squareRoot()
        #expect(abs(scale - 0.5) < 1e-9 && abs(atan2(middle.b, middle.a) - .pi / 4) < 1e-9)
        let centre = middle.apply(to: Point(x: 160, y: 120))
        let start = Self.rampStart.apply(to: Point(x: 160, y: 120)), end = Self.rampEnd.apply(to: Point(x: 160, y: 120))
        #expect(abs(centre.x - (start.x + end.x) / 2) < 1e-9 && abs(centre.y - (start.y + end.y) / 2) < 1e-9)
        try await check("transform-ramp-decomposed", layer: layer)
    }

    /// Any affine transform, shear included: a horizontal shear of 0.35 on top of a non-uniform scale (0.55, 0.5),
    /// a rotation of 12° and a translation — no decomposition into scale and rotation exists, so the compiler draws
    /// it with `perspective`. The picture is a parallelogram leaning right, red and green on top, blue and white below.
    @Test func arbitraryAffineWithShear() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        let linear = AffineTransform2D(a: 0.55, b: 0, c: 0.35 * 0.5, d: 0.5, tx: 0, ty: 0)
            .concatenating(AffineTransform2D(rotationAngle: 12 * .pi / 180))
        #expect(abs(linear.a * linear.c + linear.b * linear.d) > 0.05, "the transform shears")
        layer.setTransform(Self.centred(linear).concatenating(AffineTransform2D(translationX: -10, y: 4)), at: .zero)
        try await check("affine-shear", layer: layer)
    }

    /// A white layer translated to (61, 41) and a white PNG overlay at (201, 151) start exactly on those pixels
    /// (luma edges are exact; `overlay=format=yuv420` alone would snap them to (60, 40) and (200, 150)).
    @Test func oddPositionsLandOnTheirPixel() async throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let white = try await SyntheticMedia.makeAsset(video: .colorField(.white), duration: MediaTime(seconds: 1), in: scratch.url)
        let png = scratch.file("white.png")
        try VideoFrame(width: 40, height: 20, bytesPerRow: 160, pixels: [UInt8](repeating: 255, count: 40 * 20 * 4))!.write(to: png)
        let (composition, ids) = try S.composition([.init(asset: white, duration: MediaTime(seconds: 1))])
        var layer = VideoCompositionLayerInstruction(trackID: ids[0])
        layer.setTransform(AffineTransform2D(scaleX: 0.25, y: 0.25).concatenating(AffineTransform2D(translationX: 61, y: 41)), at: .zero)
        var video = S.videoComposition([layer], duration: MediaTime(seconds: 1))
        video.overlays = [OverlayLayer(content: .image(png), frame: Rect(x: 201, y: 151, width: 40, height: 20),
                                       timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))]
        let frame = try await S.render(composition, video, at: .zero)
        // The layer covers x 61…140, y 41…100; the overlay x 201…240, y 151…170.
        for (x, y, colour) in [(60, 70, RGB.black), (61, 70, .white), (140, 70, .white), (141, 70, .black),
                               (100, 40, .black), (100, 41, .white), (100, 100, .white), (100, 101, .black),
                               (200, 160, .black), (201, 160, .white), (240, 160, .white), (241, 160, .black),
                               (220, 150, .black), (220, 151, .white), (220, 170, .white), (220, 171, .black)] {
            expectPixel(frame, x, y, colour, tolerance: 1)
        }
    }

    static let rampStart = AffineTransform2D(scaleX: 0.5, y: 0.5)
    static let rampEnd = AffineTransform2D(a: 0, b: 0.5, c: -0.5, d: 0, tx: 220, ty: 40)

    /// `linear` followed by the translation that puts the source centre (160, 120) on the canvas centre.
    static func centred(_ linear: AffineTransform2D) -> AffineTransform2D {
        let moved = linear.apply(to: Point(x: 160, y: 120))
        return linear.concatenating(AffineTransform2D(translationX: 160 - moved.x, y: 120 - moved.y))
    }
}
