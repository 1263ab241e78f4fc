import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Overlay features beyond position/scale/opacity: rotation of image overlays, text alignment and font lookup.
@Suite("Overlay rendering")
struct OverlayRenderingTests {
    static func blueCanvas() async throws -> MutableComposition {
        let blue = try await Fixture.asset("solid/blue-2s-ffv1.mkv")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: blue, at: .zero)
        return composition
    }

    static func picture(_ composition: MutableComposition, _ video: MutableVideoComposition) async throws -> VideoFrame {
        var generator = AssetImageGenerator(asset: composition)
        generator.videoComposition = video
        generator.requestedTimeToleranceBefore = .zero
        return try await generator.image(at: MediaTime(value: 1, timescale: 2)).image
    }

    @Test func anImageOverlayRotatesAboutItsCentre() async throws {
        let composition = try await Self.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        // alpha.png: 200x100, left half transparent, right half opaque red. Turned half a turn, red is on the left.
        var overlay = OverlayLayer(content: .image(Fixture.url("stills/alpha.png")), frame: Rect(x: 60, y: 70, width: 200, height: 100),
                                   timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))
        overlay.rotations.setValue(Double.pi, at: .zero)
        video.overlays = [overlay]
        let frame = try await Self.picture(composition, video)
        #expect(colorMatches(frame.meanColor(in: Rect(x: 80, y: 100, width: 40, height: 40)), (255, 0, 0), tolerance: 6),
                "left half: \(frame.meanColor(in: Rect(x: 80, y: 100, width: 40, height: 40)))")
        #expect(colorMatches(frame.meanColor(in: Rect(x: 200, y: 100, width: 40, height: 40)), (0, 0, 255), tolerance: 6),
                "right half shows the canvas: \(frame.meanColor(in: Rect(x: 200, y: 100, width: 40, height: 40)))")
    }

    @Test(arguments: [("left", 10.0, 110.0), ("right", 210.0, 310.0)])
    func textIsAlignedInItsFrame(alignment: String, inkFrom: Double, inkTo: Double) async throws {
        let composition = try await Self.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        let text = TextLayerContent(string: "MMMM", fontFamily: "DejaVu Sans", fontSize: 24, color: .white,
                                    alignment: TextLayerContent.Alignment(rawValue: alignment) ?? .center)
        video.overlays = [OverlayLayer(content: .text(text), frame: Rect(x: 0, y: 100, width: 320, height: 40),
                                       timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))]
        let frame = try await Self.picture(composition, video)
        // White ink only within the expected third of the row; the other side stays canvas blue.
        let inkSide = frame.meanColor(in: Rect(x: inkFrom, y: 108, width: inkTo - inkFrom, height: 24))
        let otherSide = frame.meanColor(in: Rect(x: alignment == "left" ? 210 : 10, y: 108, width: 100, height: 24))
        #expect(inkSide.red > 40, "ink \(inkSide)")
        #expect(otherSide.red < 3 && otherSide.blue > 240, "blank side \(otherSide)")
    }

    @Test func rotatingTextIsRefusedBeforeWriting() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let composition = try await Self.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        var overlay = OverlayLayer(content: .text(TextLayerContent(string: "spin", fontSize: 20)), frame: Rect(x: 0, y: 0, width: 100, height: 40),
                                   timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))
        overlay.rotations.setValue(0.5, at: .zero)
        video.overlays = [overlay]
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "ultrafast")))
        session.outputURL = scratch.file("out.mp4")
        session.videoComposition = video
        await #expect(throws: ExportError.unsupportedSettings("text overlay 'spin' rotates; rotation is rendered for image overlays only")) {
            try await session.export()
        }
        #expect(scratch.contents.isEmpty)
    }
}
