import Foundation
import Testing
import Composition
@testable import VideoComposition

private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }
private func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange { TimeRange(start: start, end: end) }

@Suite("MutableVideoComposition: JSON")
struct VideoCompositionCodableTests {
    /// A composition using every field: two instructions, ramps of every parameter, keyframes with easing, decomposed
    /// interpolation, an image and a text overlay with animations.
    func everything() -> MutableVideoComposition {
        var top = VideoCompositionLayerInstruction(trackID: 1, transformInterpolation: .decomposed)
        top.decomposedInterpolationPivot = Point(x: 640, y: 360)
        top.setTransformRamp(
            fromStart: .identity, toEnd: AffineTransform2D(rotationAngle: 0.3).concatenating(AffineTransform2D(translationX: 1.0 / 3.0, y: 2)),
            timeRange: range(.zero, s(1001, 1000)), easing: .easeInOut)
        top.setOpacity(keyframes: [Keyframe(time: s(1), value: 1), Keyframe(time: s(2), value: 0.1, easing: .hold), Keyframe(time: s(3), value: 0)])
        top.setCropRectangle(Rect(x: 10, y: 20, width: 300, height: 200.5), at: s(1, 3))
        var bottom = VideoCompositionLayerInstruction(trackID: 2)
        bottom.setCropRectangleRamp(
            fromStartCropRectangle: Rect(x: 0, y: 0, width: 640, height: 360), toEndCropRectangle: Rect(x: 1, y: 1, width: 2, height: 2),
            timeRange: range(s(1), s(2)))
        var image = OverlayLayer(
            content: .image(URL(fileURLWithPath: "/tmp/logo with space.png")), frame: Rect(x: 0, y: 0, width: 64, height: 64),
            timeRange: TimeRange(start: .zero, duration: .positiveInfinity), opacity: 0.5)
        image.positions.setRamp(from: Point(x: 32, y: 32), to: Point(x: 100, y: 32), timeRange: range(.zero, s(1)))
        image.scales.setValue(2, at: s(2))
        image.rotations.setValue(-0.5, at: s(3))
        image.opacities.setRamp(from: 0.5, to: 0, timeRange: range(s(3), s(4)), easing: .easeOut)
        let text = OverlayLayer(
            content: .text(TextLayerContent(
                string: "Hello\n世界", fontFile: URL(fileURLWithPath: "/fonts/a.ttf"), fontSize: 36.5,
                color: Color(red: 1, green: 0.9, blue: 0), alignment: .right, backgroundColor: Color(red: 0, green: 0, blue: 0, alpha: 0.6),
                padding: 8)),
            frame: Rect(x: 40, y: 600, width: 500, height: 80), timeRange: range(s(1, 2), s(4)))
        return MutableVideoComposition(
            renderSize: Size(width: 1280, height: 720), frameDuration: s(1001, 30000),
            instructions: [
                VideoCompositionInstruction(timeRange: range(.zero, s(2)), layerInstructions: [top, bottom]),
                VideoCompositionInstruction(
                    timeRange: range(s(2), s(4)), layerInstructions: [bottom], backgroundColor: Color(hex: "#102030"),
                    enablePostProcessing: false),
            ],
            backgroundColor: Color(red: 0.2, green: 0.2, blue: 0.2), overlays: [image, text])
    }

    @Test func roundTripsExactly() throws {
        let original = everything()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(original)
        let decoded = try JSONDecoder().decode(MutableVideoComposition.self, from: data)
        #expect(decoded == original)
        #expect(try encoder.encode(decoded) == data)  // stable text
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""frameDuration" : "1001\/30000""#))
        #expect(text.contains(#""transformInterpolation" : "decomposed""#))
        #expect(text.contains(#""easing" : "easeInOut""#))
    }

    @Test func aHandWrittenDocumentUsesTheDefaults() throws {
        let document = #"""
        {
          "renderSize": {"width": 1920, "height": 1080},
          "frameDuration": "1/30",
          "instructions": [
            {"timeRange": {"start": "0", "duration": "2"},
             "layerInstructions": [
               {"trackID": 1,
                "opacity": [{"timeRange": {"start": "1", "duration": "1"}, "startValue": 1, "endValue": 0}],
                "transform": [{"time": "0", "value": {"a": 1.5, "b": 0, "c": 0, "d": 1.5, "tx": 0, "ty": 0}}]}
             ]}
          ],
          "overlays": [
            {"content": {"text": {"string": "Title", "fontSize": 64, "color": "#FFCC00"}},
             "frame": {"x": 0, "y": 0, "width": 1920, "height": 200},
             "timeRange": {"start": "0", "duration": "2"}},
            {"content": {"image": "/srv/media/logo.png"},
             "frame": {"x": 1800, "y": 40, "width": 80, "height": 80},
             "timeRange": {"start": "1/2", "duration": "+inf"},
             "scale": [{"time": "1", "value": 1}, {"timeRange": {"start": "1", "duration": "1"}, "startValue": 1, "endValue": 2, "easing": "easeIn"}]}
          ]
        }
        """#
        let video = try JSONDecoder().decode(MutableVideoComposition.self, from: Data(document.utf8))
        #expect(video.backgroundColor == .black)
        let instruction = try #require(video.instructions.first)
        #expect(instruction.enablePostProcessing)
        #expect(instruction.backgroundColor == nil)
        let layer = try #require(instruction.layerInstruction(forTrackID: 1))
        #expect(layer.transformInterpolation == .matrix)
        #expect(layer.opacity(at: s(3, 2)) == 0.5)
        #expect(layer.transform(at: s(1)) == AffineTransform2D(scaleX: 1.5, y: 1.5))
        #expect(layer.cropRectangle(at: s(1)) == nil)
        guard case .text(let title) = video.overlays[0].content else {
            Issue.record("overlay 0 is not text")
            return
        }
        #expect(title == TextLayerContent(string: "Title", fontSize: 64, color: Color(hex: "#FFCC00") ?? .black))
        #expect(title.alignment == .center && title.fontFamily == "sans-serif" && title.padding == 0)
        #expect(video.overlays[1].content == .image(URL(fileURLWithPath: "/srv/media/logo.png")))
        #expect(video.overlays[1].opacity == 1)
        #expect(video.overlays[1].scale(at: s(3, 2)) == 1.25)
        #expect(video.overlays[1].isVisible(at: s(3600)))
    }

    @Test func malformedDocumentsFailWithTheirCause() {
        let noContent = #"{"content": {}, "frame": {"x": 0, "y": 0, "width": 1, "height": 1}, "timeRange": {"start": "0", "duration": "1"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OverlayLayer.self, from: Data(noContent.utf8)) }
        let badTime = #"{"renderSize": {"width": 2, "height": 2}, "frameDuration": "1/0"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MutableVideoComposition.self, from: Data(badTime.utf8)) }
    }
}
