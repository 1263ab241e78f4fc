import Foundation
import Testing
@testable import Export
import Splice

/// Kind: mixed resolutions, pixel aspect ratios, odd sizes and a size change inside one stream. The displayed aspect
/// is honoured everywhere; odd sizes follow a documented rule; nothing gives a zero-byte file.
@Suite("Kinds: picture sizes and pixel aspect ratios")
struct KindsPictureSizeTests {
    typealias RGB = SyntheticMedia.RGB

    /// `odd/size-change.mkv`: 30 frames of 320 × 240, then 30 frames of 640 × 360 (Fixtures/README.md). The track's
    /// natural size is 320 × 240 (the stream header), so the canvas is 320 × 240. After the change each 640 × 360
    /// picture is fitted whole into the track's 320 × 240 box (scale 1/2, rows 30 ..< 210), never cut to its
    /// top-left quarter.
    @Test func sizeChangeInsideTheStreamFitsTheNewPictureIntoTheTrackBox() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let asset = try await Fixture.asset("odd/size-change.mkv")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: asset, at: .zero)
        var video = MutableVideoComposition(propertiesOf: composition)
        video.frameDuration = MediaTime(value: 1, timescale: 30)
        #expect(video.renderSize == Size(width: 320, height: 240))
        let output = scratch.file("size-change.mp4")
        let result = try await KindsExport.export(composition, to: output, videoComposition: video)
        let track = try #require(result.tracks(withMediaType: .video).first)
        #expect(track.naturalSize == Size(width: 320, height: 240))
        #expect(track.video?.frameCount == 60)
        #expect(track.timeRange.duration == MediaTime(seconds: 2))

        let frames = try await Readback.frames(of: output, at: [.ms(500), .ms(1500)])
        // Before the change: testsrc fills the canvas (no black band at top or bottom).
        #expect(Measure.meanLevel(frames[0].cropped(Rect(x: 0, y: 0, width: 320, height: 28))) > 60)
        #expect(Measure.meanLevel(frames[0].cropped(Rect(x: 0, y: 212, width: 320, height: 28))) > 60)
        // After: background bars on rows 0 ..< 30 and 210 ..< 240 (the rows next to each edge left out for 4:2:0
        // chroma), the picture between them.
        #expect(colorMatches(frames[1].meanColor(in: Rect(x: 0, y: 0, width: 320, height: 29)), (0, 0, 0), tolerance: 2),
                "\(frames[1].meanColor(in: Rect(x: 0, y: 0, width: 320, height: 29)))")
        #expect(colorMatches(frames[1].meanColor(in: Rect(x: 0, y: 211, width: 320, height: 29)), (0, 0, 0), tolerance: 2),
                "\(frames[1].meanColor(in: Rect(x: 0, y: 211, width: 320, height: 29)))")
        #expect(Measure.meanLevel(frames[1].cropped(Rect(x: 0, y: 31, width: 320, height: 178))) > 60)
    }
}

extension VideoFrame {
    /// The pixels inside `rect` (whole pixels, clipped to the picture) as a new frame.
    func cropped(_ rect: Rect) -> VideoFrame {
        let x0 = max(0, Int(rect.minX)), y0 = max(0, Int(rect.minY))
        let x1 = min(width, Int(rect.maxX)), y1 = min(height, Int(rect.maxY))
        var out: [UInt8] = []
        out.reserveCapacity((x1 - x0) * (y1 - y0) * 4)
        for y in y0..<y1 {
            let start = y * bytesPerRow + x0 * 4
            out.append(contentsOf: pixels[start..<(start + (x1 - x0) * 4)])
        }
        return VideoFrame(width: x1 - x0, height: y1 - y0, bytesPerRow: (x1 - x0) * 4, pixels: out)!
    }
}
