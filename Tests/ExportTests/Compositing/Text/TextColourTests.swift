import Foundation
import Testing
@testable import Export
import Splice

/// Text and box colours come out as the model states them in the BT.709 output: `drawtext` draws on RGBA and one
/// `scale` converts with the BT.709 matrix (drawtext's own YUV drawing uses BT.601 in FFmpeg 5.1).
@Suite("Text colour")
struct TextColourTests {
    /// Orange text (255, 191, 32) on a green box (51, 204, 102), left-aligned with 10 pixels of padding in the frame
    /// (40, 80, 240 × 80) over the blue canvas. The text is full blocks (U+2588), so whole 2 × 2 chroma blocks are
    /// inked. Through BT.601 the text read back as about (255, 188, 23): 9 levels off in blue.
    @Test func nonGreyTextAndBoxColoursAreExact() async throws {
        let composition = try await OverlayRenderingTests.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        let text = TextLayerContent(
            string: "\u{2588}\u{2588}", fontFamily: "DejaVu Sans", fontSize: 40, color: Color(red: 1, green: 0.75, blue: 0.125),
            alignment: .left, backgroundColor: Color(red: 0.2, green: 0.8, blue: 0.4), padding: 10)
        video.overlays = [OverlayLayer(content: .text(text), frame: Rect(x: 40, y: 80, width: 240, height: 80),
                                       timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))]
        let frame = try await OverlayRenderingTests.picture(composition, video)

        func distance(_ p: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8), _ c: (Int, Int, Int)) -> Int {
            max(abs(Int(p.red) - c.0), abs(Int(p.green) - c.1), abs(Int(p.blue) - c.2))
        }
        // The box starts at the frame's left edge (the text starts 10 pixels in, the box reaches 10 pixels out of
        // it) and is centred on the frame's middle row, 120.
        let box = try #require(frame.pixel(x: 43, y: 120))
        #expect(distance(box, (51, 204, 102)) <= 3, "box pixel (43, 120): \(box)")
        // The blocks start at x 50 (about 24 pixels wide each at 40 pixels): row 120 is inked well inside them.
        for x in [56, 60, 64] {
            let ink = try #require(frame.pixel(x: x, y: 120))
            #expect(distance(ink, (255, 191, 32)) <= 3, "text pixel (\(x), 120): \(ink)")
        }
        // Outside the frame the canvas is untouched blue.
        let outside = try #require(frame.pixel(x: 20, y: 120))
        #expect(distance(outside, (0, 0, 255)) <= 2, "(20, 120): \(outside)")
    }

    /// Text reaching beyond its frame is clipped to the frame, as a CATextLayer draws within its bounds.
    @Test func textIsClippedToItsFrame() async throws {
        let composition = try await OverlayRenderingTests.blueCanvas()
        var video = MutableVideoComposition(propertiesOf: composition)
        let text = TextLayerContent(string: "WWWWWWWWWW", fontFamily: "DejaVu Sans", fontSize: 40, color: .white)
        video.overlays = [OverlayLayer(content: .text(text), frame: Rect(x: 100, y: 80, width: 120, height: 80),
                                       timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))]
        let frame = try await OverlayRenderingTests.picture(composition, video)
        let inside = frame.meanColor(in: Rect(x: 100, y: 100, width: 120, height: 40))
        let left = frame.meanColor(in: Rect(x: 0, y: 80, width: 100, height: 80))
        let right = frame.meanColor(in: Rect(x: 220, y: 80, width: 100, height: 80))
        #expect(inside.red > 40, "ink inside the frame: \(inside)")
        #expect(left.red < 2 && right.red < 2, "no ink outside: \(left), \(right)")
    }
}
