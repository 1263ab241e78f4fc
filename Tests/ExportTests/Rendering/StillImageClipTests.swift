import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Difficult input: still images as clips for a duration (a PNG with alpha, a JPEG; the EXIF-rotated JPEG is M14 in
/// RealFootageTests).
@Suite("Difficult inputs: still images")
struct StillImageClipTests {
    /// `stills/alpha.png` (200 × 100: left half transparent, right half opaque red) for 1.5 s: 45 frames of
    /// 200 × 100, the transparent half shows the black background, the red half is red.
    @Test func pngWithAlphaAsAClip() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let still = try await Fixture.asset("stills/alpha.png")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(1500)), of: still, at: .zero)
        #expect(composition.duration == .ms(1500))
        let output = scratch.file("alpha.mp4")
        let result = try await MeasuredExport.export(composition, to: output)
        let track = try #require(result.tracks.first)
        #expect(track.naturalSize == Size(width: 200, height: 100))
        #expect(track.video?.frameCount == 45)
        #expect(track.timeRange.duration == .ms(1500))
        let frames = try await Readback.frames(of: output, at: [.zero, .ms(1467)])
        for frame in frames {
            #expect(colorMatches(frame.meanColor(in: Rect(x: 4, y: 4, width: 90, height: 92)), (0, 0, 0), tolerance: 2))
            #expect(colorMatches(frame.meanColor(in: Rect(x: 106, y: 4, width: 90, height: 92)), (255, 0, 0), tolerance: 3))
        }
    }

    /// The PNG on a track above `solid/blue-2s-ffv1.mkv` (320 × 240): the canvas is 320 × 240; the PNG is fitted to
    /// 320 × 160 at rows 40 ..< 200; through its transparent half the blue clip shows, its opaque half is red; above
    /// and below it the blue clip fills the canvas.
    @Test func pngAlphaShowsTheTrackBelow() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let still = try await Fixture.asset("stills/alpha.png")
        let blue = try await Fixture.asset("solid/blue-2s-ffv1.mkv")
        var composition = MutableComposition()
        let second = TimeRange(start: .zero, duration: MediaTime(seconds: 1))
        let top = try composition.addMutableTrack(withMediaType: .video)
        let bottom = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(second, of: still.tracks[0], at: .zero, intoTrackWithID: top)
        try composition.insertTimeRange(second, of: blue.tracks[0], at: .zero, intoTrackWithID: bottom)
        let video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.renderSize == Size(width: 320, height: 240))
        #expect(video.instructions.first?.layerInstructions.map(\.trackID) == [top, bottom], "the first track on top")
        let output = scratch.file("over-blue.mp4")
        let result = try await MeasuredExport.export(composition, to: output, videoComposition: video)
        #expect(result.tracks.first?.video?.frameCount == 30)
        let frame = try #require(try await Readback.frames(of: output, at: [.ms(500)]).first)
        let checks: [(Rect, (Double, Double, Double))] = [
            (Rect(x: 8, y: 8, width: 304, height: 28), (0, 0, 255)),      // above the picture: the blue clip
            (Rect(x: 8, y: 48, width: 144, height: 144), (0, 0, 255)),    // transparent half: blue shows through
            (Rect(x: 168, y: 48, width: 144, height: 144), (255, 0, 0)),  // opaque half: red
            (Rect(x: 8, y: 204, width: 304, height: 28), (0, 0, 255)),    // below
        ]
        for (rect, colour) in checks {
            #expect(colorMatches(frame.meanColor(in: rect), colour, tolerance: 3), "\(rect): \(frame.meanColor(in: rect))")
        }
    }

    /// `stills/photo.jpg` (400 × 300, full-range JPEG) for 2 s: 60 frames of 400 × 300, the same picture at the start
    /// and at the end, with testsrc2's bar colours (not shifted by the full range).
    @Test func jpegAsAClip() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let still = try await Fixture.asset("stills/photo.jpg")
        #expect(still.tracks[0].video?.isStillImage == true)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: still, at: .zero)
        let output = scratch.file("photo.mp4")
        let result = try await MeasuredExport.export(composition, to: output, settings: MeasuredExport.settings(crf: 18))
        let track = try #require(result.tracks.first)
        #expect(track.naturalSize == Size(width: 400, height: 300))
        #expect(track.video?.frameCount == 60)
        #expect(track.timeRange.duration == MediaTime(seconds: 2))
        let frames = try await Readback.frames(of: output, at: [.zero, MediaTime(value: 59, timescale: 30)])
        let whole = Rect(x: 0, y: 0, width: 400, height: 300)
        #expect(frames[0].blockDifference(in: whole, from: frames[1]) < 2, "the picture holds for the whole clip")
        // testsrc2's bars (measured in the JPEG with ffmpeg): red x 0..66, green 67..133, yellow 134..199, blue
        // 200..266, cyan 333..399, full range; a range mix-up would give e.g. (235, 16, 16) for red.
        let bars: [(Rect, (Double, Double, Double))] = [
            (Rect(x: 10, y: 250, width: 40, height: 40), (255, 0, 0)), (Rect(x: 75, y: 250, width: 15, height: 40), (0, 255, 0)),
            (Rect(x: 145, y: 250, width: 45, height: 40), (255, 255, 0)), (Rect(x: 210, y: 260, width: 45, height: 30), (0, 0, 255)),
            (Rect(x: 345, y: 260, width: 45, height: 30), (0, 255, 255)),
        ]
        for (rect, colour) in bars {
            #expect(colorMatches(frames[0].meanColor(in: rect), colour, tolerance: 6), "\(rect): \(frames[0].meanColor(in: rect))")
        }
    }
}
