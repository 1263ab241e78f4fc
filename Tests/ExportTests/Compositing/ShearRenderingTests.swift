import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// General affine layer transforms (shear), drawn by `perspective` on an edge-extended picture: which pixels the sheared
/// parallelogram covers follows from the inverse matrix; edges have no dark fringe; a singular matrix draws nothing;
/// a build without `perspective` is refused before anything is written.
@Suite("Shear rendering")
struct ShearRenderingTests {
    /// 320 × 240 solid fixtures (exact RGB, FFV1).
    static func solid(_ colour: String) async throws -> Asset {
        try await Fixture.asset("solid/\(colour)-2s-ffv1.mkv")
    }

    /// The composition: `asset` for 2 s on one track, drawn by `layer` (its track ID is filled in) on a 320 × 240,
    /// 30 fps canvas over `background`.
    static func scene(_ asset: Asset, layer: VideoCompositionLayerInstruction, background: Color = .black)
        throws -> (MutableComposition, MutableVideoComposition) {
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: asset, at: .zero)
        var layer = layer
        layer.trackID = try #require(composition.tracks.first).trackID
        let video = MutableVideoComposition(
            renderSize: Size(width: 320, height: 240), frameDuration: MediaTime(value: 1, timescale: 30),
            instructions: [VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)),
                                                       layerInstructions: [layer])],
            backgroundColor: background)
        return (composition, video)
    }

    /// The exact picture at `time` through the export compositor (zero tolerance).
    static func picture(_ scene: (MutableComposition, MutableVideoComposition), at time: MediaTime) async throws -> VideoFrame {
        var generator = AssetImageGenerator(asset: scene.0)
        generator.videoComposition = scene.1
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let (image, actual) = try await generator.image(at: time)
        #expect(actual == time)
        return image
    }

    /// Where canvas pixel (x, y) lies against the parallelogram: its centre and 16 points `margin` canvas pixels
    /// around it all map (through the inverse matrix) inside the source rectangle, all outside it, or some of each
    /// (an edge, where bilinear sampling and 4:2:0 chroma blend).
    enum Coverage { case inside, outside, edge }

    static func coverage(_ x: Int, _ y: Int, inverse: AffineTransform2D, source: Rect, margin: Double) -> Coverage {
        let centre = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
        let points = [centre] + (0..<16).map { k in
            Point(x: centre.x + margin * cos(Double(k) * .pi / 8), y: centre.y + margin * sin(Double(k) * .pi / 8))
        }
        let inside = points.map { point in
            let p = inverse.apply(to: point)
            return p.x >= source.minX && p.x < source.maxX && p.y >= source.minY && p.y < source.maxY
        }
        if inside.allSatisfy({ $0 }) { return .inside }
        if inside.allSatisfy({ !$0 }) { return .outside }
        return .edge
    }

    /// Checks every pixel of `frame` that lies more than `margin` canvas pixels inside or outside the parallelogram:
    /// inside `inside`, outside `outside`, within ±`tolerance` per channel. Returns the counts checked.
    static func expectParallelogram(
        _ frame: VideoFrame, transform: AffineTransform2D, source: Rect, inside: (Double, Double, Double),
        outside: (Double, Double, Double), tolerance: Double = 3, margin: Double = 3
    ) throws -> (inside: Int, outside: Int) {
        let inverse = try #require(transform.inverted())
        var counts = (inside: 0, outside: 0)
        var failures: [String] = []
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let expected: (Double, Double, Double)
                switch coverage(x, y, inverse: inverse, source: source, margin: margin) {
                case .inside: expected = inside; counts.inside += 1
                case .outside: expected = outside; counts.outside += 1
                case .edge: continue
                }
                let p = try #require(frame.pixel(x: x, y: y))
                if abs(Double(p.red) - expected.0) > tolerance || abs(Double(p.green) - expected.1) > tolerance
                    || abs(Double(p.blue) - expected.2) > tolerance {
                    failures.append("(\(x), \(y)) is (\(p.red), \(p.green), \(p.blue)), expected \(expected)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) pixels differ beyond ±\(tolerance): \(failures.prefix(6).joined(separator: "; "))")
        return counts
    }

    /// The half-size red picture sheared along x (x' = 0.5·x + 0.25·y + 40, y' = 0.5·y + 30): the parallelogram
    /// (40, 30), (200, 30), (260, 150), (100, 150) is red, the rest of the canvas black.
    @Test func horizontalShearCoversTheParallelogram() async throws {
        let transform = AffineTransform2D(a: 0.5, b: 0, c: 0.25, d: 0.5, tx: 40, ty: 30)
        #expect(LayerGeometry(transform) == .general)
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(transform, at: .zero)
        let frame = try await Self.picture(try Self.scene(try await Self.solid("red"), layer: layer), at: MediaTime(seconds: 1))
        let counts = try Self.expectParallelogram(
            frame, transform: transform, source: Rect(x: 0, y: 0, width: 320, height: 240), inside: (255, 0, 0), outside: (0, 0, 0))
        // Area 160 × 120 = 19200 of the 76800 pixels; the 3-pixel bands along its edges (3580 pixels) are left out.
        #expect(counts.inside == 17_442 && counts.outside == 55_778, "\(counts)")
        // Spot checks: the left edge runs along x = 40 + 0.5·(y − 30) (95.25 at the centre of row 140), the right
        // one along x = 200 + 0.5·(y − 30) (205.25 in row 40).
        #expect(frame.pixel(x: 91, y: 140).map { $0.red < 4 } == true, "left of the slanted edge in row 140")
        #expect(frame.pixel(x: 99, y: 140).map { $0.red > 251 } == true, "right of the slanted edge in row 140")
        #expect(frame.pixel(x: 201, y: 40).map { $0.red > 251 } == true, "left of the right edge in row 40")
        #expect(frame.pixel(x: 209, y: 40).map { $0.red < 4 } == true, "right of the right edge in row 40")
    }

    /// A vertical shear (y' = 0.2·x + 0.5·y + 20) combined with a flip of x, a crop and opacity 0.5: crop first, then
    /// the transform, then opacity, as every other path — red at half opacity over black is (128, 0, 0).
    @Test func verticalShearWithCropAndOpacity() async throws {
        let transform = AffineTransform2D(a: -0.5, b: 0.2, c: 0, d: 0.5, tx: 260, ty: 20)
        #expect(LayerGeometry(transform) == .general)
        let crop = Rect(x: 40, y: 20, width: 200, height: 180)
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(transform, at: .zero)
        layer.setCropRectangle(crop, at: .zero)
        layer.setOpacity(0.5, at: .zero)
        let frame = try await Self.picture(try Self.scene(try await Self.solid("red"), layer: layer), at: MediaTime(seconds: 1))
        let counts = try Self.expectParallelogram(frame, transform: transform, source: crop, inside: (128, 0, 0), outside: (0, 0, 0))
        #expect(counts.inside == 7_858 && counts.outside == 66_596, "\(counts)")
    }

    /// A flat blue layer sheared over the same flat blue background: no pixel anywhere (edges included) differs
    /// from the background by more than 2 levels: the edge-extended colour leaves no dark fringe in luma and no
    /// greyed chroma (a black transparent margin darkened the edge pixels by up to 48 levels).
    @Test func edgesHaveNoDarkFringe() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransform(AffineTransform2D(a: 0.45, b: 0.15, c: 0.3, d: 0.5, tx: 50.3, ty: 20.7), at: .zero)
        let scene = try Self.scene(try await Self.solid("blue"), layer: layer, background: Color(red: 0, green: 0, blue: 1))
        let frame = try await Self.picture(scene, at: MediaTime(seconds: 1))
        let reference = try #require(frame.pixel(x: 0, y: 0))
        var worst = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let p = try #require(frame.pixel(x: x, y: y))
                worst = max(worst, abs(Int(p.red) - Int(reference.red)), abs(Int(p.green) - Int(reference.green)),
                            abs(Int(p.blue) - Int(reference.blue)))
            }
        }
        #expect(worst <= 2, "largest difference from the flat background: \(worst) levels")
        #expect(Int(reference.blue) >= 252 && Int(reference.red) <= 3, "background \(reference)")
    }

    /// A matrix ramp from a forward to a backward shear passes through a = 0 at 1 s (determinant 0): that frame
    /// shows the background only; a quarter of the way (a = 0.25) the layer is drawn.
    @Test func aSingularMatrixDrawsNothing() async throws {
        var layer = VideoCompositionLayerInstruction(trackID: 0)
        layer.setTransformRamp(fromStart: AffineTransform2D(a: 0.5, b: 0, c: 0.25, d: 0.5, tx: 100, ty: 40),
                               toEnd: AffineTransform2D(a: -0.5, b: 0, c: 0.25, d: 0.5, tx: 100, ty: 40),
                               timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        #expect(layer.transform(at: MediaTime(seconds: 1)).determinant == 0)
        #expect(LayerGeometry(layer.transform(at: MediaTime(seconds: 1))) == .singular)
        let scene = try Self.scene(try await Self.solid("red"), layer: layer)
        let singular = try await Self.picture(scene, at: MediaTime(seconds: 1))
        let all = singular.meanColor(in: Rect(x: 0, y: 0, width: 320, height: 240))
        #expect(all.red < 0.5 && all.green < 0.5 && all.blue < 0.5, "mean \(all)")
        let quarter = try await Self.picture(scene, at: MediaTime(value: 1, timescale: 2))
        let transform = layer.transform(at: MediaTime(value: 1, timescale: 2))
        #expect(transform.a == 0.25)
        let counts = try Self.expectParallelogram(
            quarter, transform: transform, source: Rect(x: 0, y: 0, width: 320, height: 240), inside: (255, 0, 0), outside: (0, 0, 0))
        #expect(counts.inside == 8_322 && counts.outside == 65_858, "\(counts)")
    }

    /// A nearly singular shear (the parallelogram 0.2 pixels thick) and one off the canvas compile to no layer at all.
    @Test func aSliverOrAnOffCanvasShearCompilesToNothing() throws {
        let input = PictureFormat(width: 320, height: 240)
        for transform in [AffineTransform2D(a: 0.5, b: 0.25, c: 0.5, d: 0.25 + 0.2 / 240, tx: 10, ty: 10),
                          AffineTransform2D(a: 0.5, b: 0, c: 0.25, d: 0.5, tx: 900, ty: 40)] {
            #expect(LayerGeometry(transform) == .general)
            let configuration = GraphConfiguration(
                instructionIndex: 0, background: .black, canvas: Size(width: 320, height: 240), output: Size(width: 320, height: 240),
                frameRate: AVRationalKey(num: 30, den: 1),
                layers: [LayerConfiguration(input: input, transform: transform, crop: nil, opacity: 1)],
                imageOverlays: [], textOverlays: [])
            let compiled = try FilterGraphCompiler.compile(configuration)
            #expect(!compiled.description.contains("perspective"), "\(compiled.description)")
            #expect(compiled.inputs.count == 1, "only the background is pushed")
        }
    }

    /// The warp's corner points come from the matrix exactly: a pure translation by (7, 5) sent through the warp
    /// path sends the corners of the padded frame to themselves shifted, minus the even origin (6, 4).
    @Test func warpCornersFollowTheMatrix() throws {
        let layer = LayerConfiguration(input: PictureFormat(width: 100, height: 80),
                                       transform: AffineTransform2D(translationX: 7, y: 5), crop: nil, opacity: 1)
        let placed = try #require(try FilterGraphCompiler.warp(
            layer: layer, transform: layer.transform, width: 100, height: 80, canvas: Size(width: 320, height: 240),
            steps: [], label: "L0", name: "l0"))
        #expect(placed.x == 6 && placed.y == 4)
        // Padded frame 104 × 84 (2-pixel margin; the covered region 6 ..< 108 is narrower): corner (0, 0) of the
        // padded frame is source (−2, −2), canvas (5, 3), frame (−1, −1).
        #expect(placed.chain.contains("pad=w=104:h=84:x=2:y=2:color=black@0,alphaextract"), "\(placed.chain)")
        #expect(placed.chain.contains("fillborders=left=2:right=2:top=2:bottom=2:mode=smear"), "\(placed.chain)")
        #expect(placed.chain.contains("perspective=x0=-1.000000:y0=-1.000000:x1=103.000000:y1=-1.000000:"
                                      + "x2=-1.000000:y2=83.000000:x3=103.000000:y3=83.000000"), "\(placed.chain)")
    }

    /// Without `perspective` (an LGPL build, simulated through the planner's filter lookup) a shear is refused
    /// before anything is opened, naming the filter; so is a matrix ramp between two shear-free transforms that
    /// shears on its way (diag(1, 2) → a quarter turn); shear-free compositions still plan.
    @Test func aBuildWithoutPerspectiveIsRefusedBeforeWriting() async throws {
        let red = try await Self.solid("red")
        let lgpl: (String) -> Bool = { $0 != "perspective" }
        func plan(_ layer: VideoCompositionLayerInstruction) throws {
            let (composition, video) = try Self.scene(red, layer: layer)
            _ = try ExportPlanner.videoPlan(
                composition: composition, tracks: composition.tracks, videoComposition: video,
                range: TimeRange(start: .zero, duration: MediaTime(seconds: 2)), maximumSize: nil, hasFilter: lgpl)
        }
        var shear = VideoCompositionLayerInstruction(trackID: 0)
        shear.setTransform(AffineTransform2D(a: 1, b: 0, c: 0.5, d: 1, tx: 0, ty: 0), at: MediaTime(seconds: 1))
        var ramp = VideoCompositionLayerInstruction(trackID: 0)
        ramp.setTransformRamp(fromStart: AffineTransform2D(scaleX: 1, y: 2), toEnd: AffineTransform2D(rotationAngle: .pi / 2),
                              timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        #expect(LayerGeometry(ramp.transform(at: MediaTime(seconds: 1))) == .general)
        for layer in [shear, ramp] {
            #expect(throws: ExportError.filterUnavailable("perspective")) { try plan(layer) }
        }
        var rotation = VideoCompositionLayerInstruction(trackID: 0)
        rotation.setTransformRamp(fromStart: AffineTransform2D(scaleX: 0.5, y: 0.5), toEnd: AffineTransform2D(rotationAngle: .pi / 2),
                                  timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        try plan(rotation)
        #expect(MediaLibrary.hasFilter(named: "perspective"), "this machine's FFmpeg is a GPL build")
    }
}
