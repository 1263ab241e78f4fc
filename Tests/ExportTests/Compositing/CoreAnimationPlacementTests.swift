import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Overlays placed as `AVVideoCompositionCoreAnimationTool` layers are: `position` is the anchor point's place,
/// origin bottom-left, y up. Rendered on the 320 × 240 blue fixture; the watermark is an opaque red
/// 64 × 32 PNG, so its pixels are told from the canvas exactly.
@Suite("Overlays placed with Core Animation geometry")
struct CoreAnimationPlacementTests {
    static let renderSize = Size(width: 320, height: 240)

    /// A 64 × 32 opaque red PNG in `scratch`.
    static func watermark(in scratch: ScratchDirectory) throws -> URL {
        let url = scratch.file("watermark.png")
        let pixels = [UInt8](repeating: 0, count: 64 * 32 * 4).enumerated().map { index, _ in index % 4 == 0 || index % 4 == 3 ? UInt8(255) : 0 }
        try #require(VideoFrame(width: 64, height: 32, bytesPerRow: 64 * 4, pixels: pixels)).write(to: url)
        return url
    }

    /// The rendered picture at 0.5 s with `geometry`'s overlay, and the overlay's computed frame.
    static func render(_ geometry: CoreAnimationGeometry, scratch: ScratchDirectory) async throws -> (VideoFrame, Rect) {
        let composition = try await OverlayRenderingTests.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.renderSize == renderSize)
        let layer = OverlayLayer(content: .image(try watermark(in: scratch)), geometry: geometry, renderSize: video.renderSize,
                                 timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))
        video.overlays = [layer]
        return (try await OverlayRenderingTests.picture(composition, video), layer.frame)
    }

    static func isRed(_ frame: VideoFrame, _ rect: Rect) -> Bool {
        colorMatches(frame.meanColor(in: rect), (255, 0, 0), tolerance: 6)
    }

    static func isBlue(_ frame: VideoFrame, _ rect: Rect) -> Bool {
        colorMatches(frame.meanColor(in: rect), (0, 0, 255), tolerance: 6)
    }

    /// The tutorial's `watermarkLayer.position = CGPoint(x: w / 2, y: h / 4)`: the centre lands 3h/4 from the top.
    @Test func theTutorialsPositionIsAQuarterAboveTheBottom() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (w, h) = (320.0, 240.0)
        let geometry = CoreAnimationGeometry(position: Point(x: w / 2, y: h / 4), bounds: Rect(x: 0, y: 0, width: 64, height: 32))
        let (frame, placed) = try await Self.render(geometry, scratch: scratch)
        #expect(placed == Rect(x: 128, y: 164, width: 64, height: 32))
        // Centre at (w/2, 3h/4) = (160, 180) from the top-left: red there, edges exactly where the frame says.
        #expect(Self.isRed(frame, Rect(x: 150, y: 172, width: 20, height: 16)), "centre \(frame.meanColor(in: Rect(x: 150, y: 172, width: 20, height: 16)))")
        #expect(Self.isRed(frame, Rect(x: 130, y: 166, width: 60, height: 28)))
        #expect(Self.isBlue(frame, Rect(x: 130, y: 150, width: 60, height: 12)), "above the watermark")
        #expect(Self.isBlue(frame, Rect(x: 130, y: 198, width: 60, height: 12)), "below the watermark")
        // Not where a top-left origin would put it (centre at y = h/4 = 60).
        #expect(Self.isBlue(frame, Rect(x: 140, y: 50, width: 40, height: 20)))
    }

    @Test func anAnchorPointAtTheOriginPutsTheBottomLeftCornerAtThePosition() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let geometry = CoreAnimationGeometry(position: Point(x: 20, y: 10), bounds: Rect(x: 0, y: 0, width: 64, height: 32),
                                             anchorPoint: Point(x: 0, y: 0))
        let (frame, placed) = try await Self.render(geometry, scratch: scratch)
        #expect(placed == Rect(x: 20, y: 198, width: 64, height: 32))  // bottom edge 10 px above the canvas bottom
        #expect(Self.isRed(frame, Rect(x: 22, y: 200, width: 60, height: 28)))
        #expect(Self.isBlue(frame, Rect(x: 22, y: 232, width: 60, height: 6)), "the 10 px strip under it")
        #expect(Self.isBlue(frame, Rect(x: 2, y: 200, width: 16, height: 28)), "left of it")
    }

    @Test func aFlippedGeometryKeepsTheTopLeftOrigin() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let geometry = CoreAnimationGeometry(position: Point(x: 160, y: 60), bounds: Rect(x: 0, y: 0, width: 64, height: 32),
                                             isGeometryFlipped: true)
        let (frame, placed) = try await Self.render(geometry, scratch: scratch)
        #expect(placed == Rect(x: 128, y: 44, width: 64, height: 32))
        #expect(Self.isRed(frame, Rect(x: 130, y: 46, width: 60, height: 28)))
        #expect(Self.isBlue(frame, Rect(x: 130, y: 166, width: 60, height: 28)))
    }

    @Test func anAnimatedPositionMapsToTheCentre() {
        let geometry = CoreAnimationGeometry(position: Point(x: 0, y: 0), bounds: Rect(x: 0, y: 0, width: 64, height: 32),
                                             anchorPoint: Point(x: 0, y: 1))
        // Anchor at the top-left corner (y up: 1 is the top); that corner at (100, 200) from the bottom-left is
        // (100, 40) from the top-left, and the centre is half the size right and down of it.
        #expect(geometry.centre(atPosition: Point(x: 100, y: 200), inCanvasOf: Self.renderSize) == Point(x: 132, y: 56))
    }
}
