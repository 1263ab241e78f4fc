import Foundation
import Splice
import SpliceTesting
import Testing
import SpliceTestSupport

/// Overlay layers above the video: an image with alpha, text, and a keyframed animation, over the exact colour
/// fixtures.
@Suite("Golden frames: overlays")
struct OverlayGoldenTests {
    typealias S = GoldenScenario

    /// `Fixtures/media/stills/alpha.png`: 200×100, transparent for x < 100, opaque red for x ≥ 100.
    static let alphaPNG = Fixture.url("stills/alpha.png")
    static let alphaPicture: Picture = { p in
        guard p.x >= 0, p.y >= 0, p.x < 200, p.y < 100 else { return nil }
        return p.x < 100 ? nil : .red
    }

    /// The model layer of an overlay image of `size` pixels drawn into `frame` (canvas pixels).
    static func overlayLayer(_ picture: @escaping Picture, size: Size, frame: Rect, opacity: Double = 1) -> ModelLayer {
        ModelLayer(picture: picture, transform: AffineTransform2D(scaleX: frame.width / Double(size.width), y: frame.height / Double(size.height))
            .concatenating(AffineTransform2D(translationX: frame.minX, y: frame.minY)), opacity: opacity)
    }

    /// A green picture (the composition) under `overlays`, at `time`.
    func render(_ overlays: [OverlayLayer], at time: MediaTime) async throws -> VideoFrame {
        let (composition, ids) = try S.composition([.init(asset: try await S.solid("green"))])
        var video = S.videoComposition([VideoCompositionLayerInstruction(trackID: ids[0])])
        video.overlays = overlays
        return try await S.render(composition, video, at: time)
    }

    /// The PNG's transparent half shows the green video, its opaque half is red.
    @Test func imageOverlayWithAlpha() async throws {
        let frame = Rect(x: 60, y: 70, width: 200, height: 100)
        let overlay = OverlayLayer(content: .image(Self.alphaPNG), frame: frame, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        let picture = try await render([overlay], at: MediaTime(seconds: 1))
        AnalyticCanvas(size: S.canvas, background: .black, layers: [
            Self.overlayLayer(Self.alphaPicture, size: Size(width: 200, height: 100), frame: frame),
            ModelLayer(picture: Pictures.solid(.green, S.canvas), transform: .identity),
        ]).expectMatches(picture)
        expectPixel(picture, 100, 120, .green)   // transparent half
        expectPixel(picture, 210, 120, .red)     // opaque half
        S.expectGolden(picture, "overlay-image-alpha")
    }

    /// White "SPLICE" on a black box centred in a 240×80 frame over the green video: the box and glyphs are inside
    /// the frame, everything outside it is the untouched green.
    @Test(.enabled(if: fontPath != nil, "fontconfig finds no DejaVu Sans Bold: text overlay not checked"))
    func textOverlay() async throws {
        let frame = Rect(x: 40, y: 80, width: 240, height: 80)
        let fontPath = try #require(Self.fontPath)
        let text = TextLayerContent(string: "SPLICE", fontFile: URL(fileURLWithPath: fontPath),
                                    fontSize: 40, color: .white, backgroundColor: .black, padding: 6)
        let overlay = OverlayLayer(content: .text(text), frame: frame, timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        let picture = try await render([overlay], at: MediaTime(seconds: 1))
        // Outside the frame (2 px away): the untouched green, at every pixel.
        var outside = 0, notGreen: [String] = []
        for y in 0..<S.canvas.height {
            for x in 0..<S.canvas.width where !(x >= 38 && x < 282 && y >= 78 && y < 162) {
                outside += 1
                if let p = picture.rgb(x, y), abs(p.red) > 3 || abs(p.green - 255) > 3 || abs(p.blue) > 3 { notGreen.append("(\(x), \(y)) \(p)") }
            }
        }
        #expect(outside == 320 * 240 - 244 * 84)
        #expect(notGreen.count == 0, "\(notGreen.count) pixels outside the text frame changed: \(notGreen.prefix(5))")
        // Inside: white glyph pixels and black box pixels, centred on the frame's centre.
        var white: [(Int, Int)] = [], black = 0
        for y in Int(frame.minY)..<Int(frame.maxY) {
            for x in Int(frame.minX)..<Int(frame.maxX) {
                guard let p = picture.rgb(x, y) else { continue }
                if p.red > 230 && p.green > 230 && p.blue > 230 { white.append((x, y)) }
                if p.red < 20 && p.green < 20 && p.blue < 20 { black += 1 }
            }
        }
        #expect(white.count > 1500, "\(white.count) white glyph pixels")
        #expect(black > 2000, "\(black) black box pixels")
        let centreX = Double(white.map(\.0).reduce(0, +)) / Double(max(white.count, 1))
        let centreY = Double(white.map(\.1).reduce(0, +)) / Double(max(white.count, 1))
        #expect(abs(centreX - 160) < 8 && abs(centreY - 120) < 8, "glyphs centred at (\(centreX), \(centreY))")
        // Inside the box around the text: no green left.
        let box = picture.meanColor(in: Rect(x: 150, y: 100, width: 20, height: 40))
        #expect(box.green < box.red + 10, "the box hides the video: \(box)")
        S.expectGolden(picture, "overlay-text")
    }

    /// DejaVu Sans Bold's file, as fontconfig finds it (nil when it is not installed).
    static let fontPath = SystemFont.file(family: "DejaVu Sans", style: "Bold")

    /// The image overlay moving from centre (110, 60) at 0 s to (210, 180) at 2 s while shrinking from 1 to 0.5:
    /// at 1 s the model puts it at centre (160, 120) with scale 0.75, i.e. the frame 150×75 at (85, 82.5).
    @Test func overlayKeyframeAnimationMidway() async throws {
        var overlay = OverlayLayer(content: .image(Self.alphaPNG), frame: Rect(x: 10, y: 10, width: 200, height: 100),
                                   timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        let ramp = TimeRange(start: .zero, duration: MediaTime(seconds: 2))
        overlay.positions.setRamp(from: Point(x: 110, y: 60), to: Point(x: 210, y: 180), timeRange: ramp)
        overlay.scales.setRamp(from: 1, to: 0.5, timeRange: ramp)
        let time = MediaTime(seconds: 1)
        #expect(overlay.frame(at: time) == Rect(x: 85, y: 82.5, width: 150, height: 75))
        let picture = try await render([overlay], at: time)
        AnalyticCanvas(size: S.canvas, background: .black, layers: [
            Self.overlayLayer(Self.alphaPicture, size: Size(width: 200, height: 100), frame: overlay.frame(at: time)),
            ModelLayer(picture: Pictures.solid(.green, S.canvas), transform: .identity),
        ]).expectMatches(picture)
        expectPixel(picture, 200, 120, .red)
        expectPixel(picture, 60, 60, .green)   // where the overlay was at rest
        S.expectGolden(picture, "overlay-animation")
    }
}
