import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Difficult input: mixed resolutions, pixel aspect ratios, odd sizes and a size change inside one stream. The displayed aspect
/// is honoured everywhere; odd sizes follow a documented rule; nothing gives a zero-byte file.
@Suite("Difficult inputs: picture sizes and pixel aspect ratios")
struct PictureSizeTests {
    typealias RGB = PaintedMedia.RGB

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
        let result = try await MeasuredExport.export(composition, to: output, videoComposition: video)
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

    /// `odd/odd-size-321x241.mp4` (4:4:4, no colour tags): the canvas is rounded up to 322 × 242 and the picture is
    /// padded, not scaled: its pixels land 1:1 at the top-left, column 321 and row 241 show the background. The
    /// file is complete: 60 frames, 2 s.
    @Test func oddSizeIsPaddedToEven() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let asset = try await Fixture.asset("odd/odd-size-321x241.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: asset, at: .zero)
        let video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.renderSize == Size(width: 322, height: 242))
        #expect(video.instructions.first?.layerInstructions.first?.transform(at: .zero) == .identity)
        let output = scratch.file("odd.mp4")
        let result = try await MeasuredExport.export(composition, to: output, videoComposition: video)
        let track = try #require(result.tracks.first)
        #expect(track.naturalSize == Size(width: 322, height: 242))
        #expect(track.video?.frameCount == 60)
        #expect(track.timeRange.duration == MediaTime(seconds: 2))

        // Exact luma (4:2:0 chroma blends the pad with its neighbour in RGB): testsrc's rightmost source column 320
        // is white above its gradient band (Y 235), the pad column 321 and the pad row 241 are the black
        // background (Y 16); a picture scaled to 322 × 242 would carry white into column 321.
        let luma = try LumaPlane.firstFrame(of: output)
        #expect(luma.width == 322 && luma.height == 242)
        let column320 = (0..<150).map { luma.y(320, $0) }, column321 = (0..<242).map { luma.y(321, $0) }
        let row241 = (0..<322).map { luma.y($0, 241) }
        #expect(column320.allSatisfy { abs(Int($0) - 235) <= 2 }, "column 320: \(Set(column320).sorted())")
        #expect(column321.allSatisfy { abs(Int($0) - 16) <= 2 }, "column 321: \(Set(column321).sorted())")
        #expect(row241.allSatisfy { abs(Int($0) - 16) <= 2 }, "row 241: \(Set(row241).sorted())")
        // Source row 240 is picture (bars), not background.
        #expect((0..<320).filter { luma.y($0, 240) > 40 }.count > 200)
    }

    /// A 160 × 240 clip with 2:1 pixels (displays 320 × 240) cut with a square-pixel 320 × 240 clip on one track:
    /// both fill the 320 × 240 canvas with the quadrant split at column 160 — the wide pixels are widened, not shown
    /// squeezed into the middle half.
    @Test func pixelAspectRatioIsHonoured() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let wideURL = scratch.file("par.mov"), squareURL = scratch.file("square.mov")
        var wide = PaintedMedia.Video.constantRate(
            width: 160, height: 240, timescale: 30, frameDuration: 1, count: 30,
            picture: { _ in PaintedMedia.quadrants(width: 160, height: 240) })
        wide.pixelAspectRatio = (2, 1)
        try PaintedMedia.write(to: wideURL, video: wide, audio: nil)
        try PaintedMedia.write(to: squareURL, video: .constantRate(
            width: 320, height: 240, timescale: 30, frameDuration: 1, count: 30,
            picture: { _ in PaintedMedia.quadrants(width: 320, height: 240) }), audio: nil)
        let wideAsset = try await Asset.load(from: wideURL), squareAsset = try await Asset.load(from: squareURL)
        #expect(wideAsset.tracks[0].video?.pixelAspectRatio == PixelAspectRatio(horizontalSpacing: 2, verticalSpacing: 1))
        #expect(wideAsset.tracks[0].video?.displaySize == Size(width: 320, height: 240))

        var composition = MutableComposition()
        let trackID = try composition.addMutableTrack(withMediaType: .video)
        let second = TimeRange(start: .zero, duration: MediaTime(seconds: 1))
        try composition.insertTimeRange(second, of: wideAsset.tracks[0], at: .zero, intoTrackWithID: trackID)
        try composition.insertTimeRange(second, of: squareAsset.tracks[0], at: MediaTime(seconds: 1), intoTrackWithID: trackID)
        let output = scratch.file("par.mp4")
        let result = try await MeasuredExport.export(composition, to: output)
        #expect(result.tracks.first?.naturalSize == Size(width: 320, height: 240))
        #expect(result.tracks.first?.video?.pixelAspectRatio == .square)

        let frames = try await Readback.frames(of: output, at: [.ms(500), .ms(1500)])
        for (frame, name) in zip(frames, ["2:1 pixels", "square pixels"]) {
            let cells: [(Rect, RGB)] = [
                (Rect(x: 8, y: 8, width: 16, height: 16), .pureRed), (Rect(x: 148, y: 60, width: 8, height: 8), .pureRed),
                (Rect(x: 164, y: 60, width: 8, height: 8), .pureGreen), (Rect(x: 296, y: 8, width: 16, height: 16), .pureGreen),
                (Rect(x: 8, y: 216, width: 16, height: 16), .pureBlue), (Rect(x: 296, y: 216, width: 16, height: 16), .yellow),
            ]
            for (rect, colour) in cells {
                #expect(colorMatches(frame.meanColor(in: rect), colour.tuple, tolerance: 4),
                        "\(name) at \(rect): \(frame.meanColor(in: rect)), expected \(colour)")
            }
        }
    }

    /// A 640 × 360 clip scaled by 1/2 onto a 320 × 180 canvas (an explicit video composition): the layer fills the
    /// canvas exactly, so it is the graph's base — and must still be scaled (it once went to the encoder at
    /// 640 × 360, which failed with "Generic error in an external library").
    @Test func layerScaledToFillTheCanvas() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = scratch.file("big.mov")
        try PaintedMedia.write(to: url, video: .constantRate(
            width: 640, height: 360, timescale: 30, frameDuration: 1, count: 15,
            picture: { _ in PaintedMedia.quadrants(width: 640, height: 360) }), audio: nil)
        let asset = try await Asset.load(from: url)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        var layer = VideoCompositionLayerInstruction(trackID: composition.tracks[0].trackID)
        layer.setTransform(AffineTransform2D(scaleX: 0.5, y: 0.5), at: .zero)
        let video = MutableVideoComposition(
            renderSize: Size(width: 320, height: 180), frameDuration: MediaTime(value: 1, timescale: 30),
            instructions: [VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: asset.duration),
                                                       layerInstructions: [layer])])
        let output = scratch.file("scaled.mp4")
        let result = try await MeasuredExport.export(composition, to: output, videoComposition: video)
        #expect(result.tracks.first?.naturalSize == Size(width: 320, height: 180))
        #expect(result.tracks.first?.video?.frameCount == 15)
        let frame = try #require(try await Readback.frames(of: output, at: [.zero]).first)
        let expected = RotationMetadataTests.uprightCorners[0]!
        for (colour, wanted) in zip(RotationMetadataTests.corners(of: frame, in: Rect(x: 0, y: 0, width: 320, height: 180)), expected) {
            #expect(colorMatches(colour, wanted.tuple, tolerance: 3), "\(colour), expected \(wanted)")
        }
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
