import Foundation
import Testing
import Composition
@testable import VideoComposition

private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }
private func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange { TimeRange(start: start, end: end) }

@Suite("OverlayLayer: evaluators")
struct VideoCompositionOverlayTests {
    let title = OverlayLayer(
        content: .text(TextLayerContent(string: "Splice", fontSize: 48)), frame: Rect(x: 100, y: 60, width: 200, height: 80),
        timeRange: range(s(1), s(5)), opacity: 0.75)

    @Test func restValuesHoldWithoutAnimation() {
        #expect(title.position(at: s(2)) == Point(x: 200, y: 100))
        #expect(title.frame(at: s(2)) == Rect(x: 100, y: 60, width: 200, height: 80))
        #expect(title.opacity(at: s(2)) == 0.75)
        #expect(title.scale(at: s(2)) == 1)
        #expect(title.rotation(at: s(2)) == 0)
        #expect(title.transform(at: s(2)) == AffineTransform2D(translationX: 100, y: 60))
        #expect(!title.isVisible(at: s(999, 1000)))
        #expect(title.isVisible(at: s(1)))
        #expect(!title.isVisible(at: s(5)))
    }

    @Test func keyframedPositionScaleOpacityAndRotation() {
        var layer = title
        layer.positions.setRamp(from: Point(x: 200, y: 100), to: Point(x: 600, y: 300), timeRange: range(s(1), s(3)))
        layer.scales.setRamp(from: 1, to: 2, timeRange: range(s(1), s(3)))
        layer.opacities.setKeyframes([Keyframe(time: s(1), value: 0), Keyframe(time: s(2), value: 1)])
        layer.rotations.setValue(.pi / 2, at: s(4))

        #expect(layer.position(at: s(2)) == Point(x: 400, y: 200))
        #expect(layer.scale(at: s(2)) == 1.5)
        #expect(layer.frame(at: s(2)) == Rect(x: 250, y: 140, width: 300, height: 120))
        #expect(layer.opacity(at: s(1, 2)) == 0.75)  // the rest opacity before the first key
        #expect(layer.opacity(at: s(3, 2)) == 0.5)
        #expect(layer.opacity(at: s(3)) == 1)
        #expect(layer.rotation(at: s(3)) == 0)
        #expect(layer.rotation(at: s(4)) == .pi / 2)

        // At 4 s: centre (600, 300), scale 2, a quarter turn clockwise about the centre.
        let transform = layer.transform(at: s(4))
        #expect(transform.apply(to: Point(x: 100, y: 40)) == Point(x: 600, y: 300))  // the layer's centre
        #expect(transform.apply(to: Point(x: 0, y: 0)) == Point(x: 680, y: 100))  // top-left: (−200, −80) turned to (80, −200)
        #expect(transform.apply(to: Point(x: 200, y: 80)) == Point(x: 520, y: 500))
    }

    @Test func overlaysAreDrawnWhenVisibleAndPostProcessingIsOn() {
        var logo = title
        logo.timeRange = TimeRange(start: .zero, duration: .positiveInfinity)
        let video = MutableVideoComposition(
            renderSize: Size(width: 1280, height: 720), frameDuration: s(1, 30),
            instructions: [
                VideoCompositionInstruction(timeRange: range(.zero, s(2)), backgroundColor: .white),
                VideoCompositionInstruction(timeRange: range(s(2), s(3)), enablePostProcessing: false),
                VideoCompositionInstruction(timeRange: range(s(3), s(6))),
            ],
            overlays: [title, logo])
        #expect(video.visibleOverlays(at: s(1, 2)) == [logo])
        #expect(video.visibleOverlays(at: s(3, 2)) == [title, logo])
        #expect(video.visibleOverlays(at: s(5, 2)).isEmpty)
        #expect(video.visibleOverlays(at: s(4)) == [title, logo])
        #expect(video.visibleOverlays(at: s(5)) == [logo])
        #expect(video.instruction(at: s(2))?.timeRange == range(s(2), s(3)))
        #expect(video.instruction(at: s(6)) == nil)
        #expect(video.backgroundColor(at: s(1)) == .white)
        #expect(video.backgroundColor(at: s(4)) == .black)
    }
}

@Suite("Color")
struct VideoCompositionColorTests {
    @Test func hexText() throws {
        #expect(Color(hex: "#FF0000") == Color(red: 1, green: 0, blue: 0))
        let translucent = try #require(Color(hex: "00ff0080"))
        #expect(translucent == Color(red: 0, green: 1, blue: 0, alpha: 128.0 / 255.0))
        #expect(translucent.hexString == "#00FF0080")
        #expect(Color(hex: "#FFF") == nil)
        #expect(Color(hex: "#GG0000") == nil)
        #expect(Color(hex: "#+F0000") == nil)
        #expect(Color.clear.hexString == "#00000000")
        #expect(Color.white.hexString == "#FFFFFFFF")
        #expect(Color(red: 0.5, green: 0, blue: 0).hexString == "#800000FF")  // 127.5 rounds half away from zero
    }

    @Test func validity() {
        #expect(Color.black.isValid && Color.clear.isValid)
        #expect(!Color(red: 1.01, green: 0, blue: 0).isValid)
        #expect(!Color(red: 0, green: .nan, blue: 0).isValid)
    }

    @Test func jsonAcceptsObjectsAndHex() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Color.self, from: Data(##""#3366FF""##.utf8)) == Color(hex: "#3366FF"))
        #expect(try decoder.decode(Color.self, from: Data(#"{"red": 1, "green": 0.5, "blue": 0}"#.utf8))
            == Color(red: 1, green: 0.5, blue: 0, alpha: 1))
        #expect(throws: DecodingError.self) { try decoder.decode(Color.self, from: Data(#""red""#.utf8)) }
        let color = Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        #expect(try decoder.decode(Color.self, from: JSONEncoder().encode(color)) == color)
    }
}
