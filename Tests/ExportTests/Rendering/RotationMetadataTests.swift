import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Difficult input: rotation metadata. A display matrix of −90° (phone held upright), 180° (upside down) or +90° must come out
/// upright; portrait and landscape clips cut on ONE track are letterboxed, never stretched; the exported file carries
/// no rotation of its own. The synthetic clip is 320 × 240 in four solid quadrants (top-left red, top-right green,
/// bottom-left blue, bottom-right yellow), so each of the eight ways to draw it is told apart by its corners.
@Suite("Difficult inputs: rotation metadata")
struct RotationMetadataTests {
    typealias RGB = PaintedMedia.RGB

    /// Writes the quadrant clip (320 × 240 coded, 30 fps, `frames` frames) with a display-matrix `rotation`.
    static func quadrantClip(rotation: Double, in scratch: ScratchDirectory, frames: Int = 15) throws -> URL {
        let url = scratch.file("quadrants\(Int(rotation)).mov")
        try PaintedMedia.write(to: url, video: .constantRate(
            width: 320, height: 240, timescale: 30, frameDuration: 1, count: frames,
            picture: { _ in PaintedMedia.quadrants(width: 320, height: 240) }
        ).rotated(rotation), audio: nil)
        return url
    }

    /// Corners of the upright picture (top-left, top-right, bottom-left, bottom-right) for each display rotation
    /// as ffprobe reports it: −90 (a phone held upright) is shown turned a quarter clockwise, so the coded picture's
    /// bottom-left (blue) comes to the top-left — what `ffmpeg` (autorotate) shows for the same file.
    static let uprightCorners: [Double: [RGB]] = [
        0: [.pureRed, .pureGreen, .pureBlue, .yellow],
        -90: [.pureBlue, .pureRed, .yellow, .pureGreen],
        180: [.yellow, .pureBlue, .pureGreen, .pureRed],
        90: [.pureGreen, .yellow, .pureRed, .pureBlue],
    ]

    /// The mean colour of a 16 × 16 patch 24 px inside each corner of `rect` in `frame`.
    static func corners(of frame: VideoFrame, in rect: Rect) -> [(red: Double, green: Double, blue: Double, alpha: Double)] {
        let inset = 24.0, side = 16.0
        return [
            Rect(x: rect.minX + inset, y: rect.minY + inset, width: side, height: side),
            Rect(x: rect.maxX - inset - side, y: rect.minY + inset, width: side, height: side),
            Rect(x: rect.minX + inset, y: rect.maxY - inset - side, width: side, height: side),
            Rect(x: rect.maxX - inset - side, y: rect.maxY - inset - side, width: side, height: side),
        ].map { frame.meanColor(in: $0) }
    }

    @Test(arguments: [0.0, -90, 180, 90])
    func comesOutUprightWithoutStrayRotation(rotation: Double) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let asset = try await Asset.load(from: Self.quadrantClip(rotation: rotation, in: scratch))
        let portrait = abs(rotation) == 90
        let upright = portrait ? Size(width: 240, height: 320) : Size(width: 320, height: 240)
        #expect(asset.tracks[0].video?.displaySize == upright)

        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        let output = scratch.file("out.mp4")
        let result = try await MeasuredExport.export(composition, to: output)
        let track = try #require(result.tracks(withMediaType: .video).first)
        #expect(track.naturalSize == upright)
        #expect(track.preferredTransform == .identity, "the output must carry no rotation of its own")
        #expect(track.video?.frameCount == 15)
        #expect(track.timeRange.duration == MediaTime(value: 1, timescale: 2))

        let frame = try #require(try await Readback.frames(of: output, at: [.zero]).first)
        let expected = try #require(Self.uprightCorners[rotation])
        let measured = Self.corners(of: frame, in: Rect(x: 0, y: 0, width: Double(upright.width), height: Double(upright.height)))
        for (corner, (colour, expectedColour)) in zip(["top-left", "top-right", "bottom-left", "bottom-right"], zip(measured, expected)) {
            #expect(colorMatches(colour, expectedColour.tuple, tolerance: 3), "\(corner): \(colour), expected \(expectedColour)")
        }
    }

    /// Landscape (320 × 240) for 1 s then the same clip recorded portrait (−90°, 240 × 320 upright) for 1 s, on one
    /// track: the canvas is 320 × 320; the landscape picture fills rows 40 ..< 280 with black bars above and below,
    /// the portrait picture fills columns 40 ..< 280 with bars left and right, each at scale 1 (not stretched).
    @Test func portraitAndLandscapeOnOneTrackAreLetterboxed() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let landscape = try await Asset.load(from: Self.quadrantClip(rotation: 0, in: scratch, frames: 30))
        let portrait = try await Asset.load(from: Self.quadrantClip(rotation: -90, in: scratch, frames: 30))
        var composition = MutableComposition()
        let trackID = try composition.addMutableTrack(withMediaType: .video)
        let second = TimeRange(start: .zero, duration: MediaTime(seconds: 1))
        try composition.insertTimeRange(second, of: landscape.tracks[0], at: .zero, intoTrackWithID: trackID)
        try composition.insertTimeRange(second, of: portrait.tracks[0], at: MediaTime(seconds: 1), intoTrackWithID: trackID)

        let video = MutableVideoComposition(propertiesOf: composition)
        #expect(video.renderSize == Size(width: 320, height: 320))
        let output = scratch.file("mixed.mp4")
        let result = try await MeasuredExport.export(composition, to: output, videoComposition: video)
        let track = try #require(result.tracks(withMediaType: .video).first)
        #expect(track.naturalSize == Size(width: 320, height: 320))
        #expect(track.preferredTransform == .identity)
        #expect(track.video?.frameCount == 60)

        let frames = try await Readback.frames(of: output, at: [.ms(500), .ms(1500)])
        // Landscape: bars at rows 0 ..< 40 and 280 ..< 320, the picture in rows 40 ..< 280. The rows on either side
        // of an edge (39, 40, 279, 280) mix chroma when the readback upsamples 4:2:0, so the edge is pinned by the
        // rows next to them: 38 black, 41 picture; 278 picture, 281 black.
        let wide = frames[0]
        #expect(colorMatches(wide.meanColor(in: Rect(x: 0, y: 0, width: 320, height: 39)), (0, 0, 0), tolerance: 2))
        #expect(colorMatches(wide.meanColor(in: Rect(x: 0, y: 281, width: 320, height: 39)), (0, 0, 0), tolerance: 2))
        #expect(colorMatches(wide.meanColor(in: Rect(x: 4, y: 41, width: 150, height: 1)), RGB.pureRed.tuple, tolerance: 3))
        #expect(colorMatches(wide.meanColor(in: Rect(x: 166, y: 278, width: 150, height: 1)), RGB.yellow.tuple, tolerance: 3))
        // The quadrant split stays at the picture's middle: column 160, row 160.
        #expect(colorMatches(wide.meanColor(in: Rect(x: 150, y: 100, width: 8, height: 8)), RGB.pureRed.tuple, tolerance: 3))
        #expect(colorMatches(wide.meanColor(in: Rect(x: 162, y: 100, width: 8, height: 8)), RGB.pureGreen.tuple, tolerance: 3))
        #expect(colorMatches(wide.meanColor(in: Rect(x: 100, y: 150, width: 8, height: 8)), RGB.pureRed.tuple, tolerance: 3))
        #expect(colorMatches(wide.meanColor(in: Rect(x: 100, y: 162, width: 8, height: 8)), RGB.pureBlue.tuple, tolerance: 3))
        for (colour, expected) in zip(Self.corners(of: wide, in: Rect(x: 0, y: 40, width: 320, height: 240)), Self.uprightCorners[0]!) {
            #expect(colorMatches(colour, expected.tuple, tolerance: 3), "landscape corner \(colour), expected \(expected)")
        }
        // Portrait: bars at columns 0 ..< 40 and 280 ..< 320 (columns 38 and 281 black, 41 and 278 picture).
        let tall = frames[1]
        #expect(colorMatches(tall.meanColor(in: Rect(x: 0, y: 0, width: 39, height: 320)), (0, 0, 0), tolerance: 2))
        #expect(colorMatches(tall.meanColor(in: Rect(x: 281, y: 0, width: 39, height: 320)), (0, 0, 0), tolerance: 2))
        #expect(colorMatches(tall.meanColor(in: Rect(x: 41, y: 4, width: 1, height: 150)), RGB.pureBlue.tuple, tolerance: 3))
        #expect(colorMatches(tall.meanColor(in: Rect(x: 278, y: 166, width: 1, height: 150)), RGB.pureGreen.tuple, tolerance: 3))
        for (colour, expected) in zip(Self.corners(of: tall, in: Rect(x: 40, y: 0, width: 240, height: 320)), Self.uprightCorners[-90]!) {
            #expect(colorMatches(colour, expected.tuple, tolerance: 3), "portrait corner \(colour), expected \(expected)")
        }
    }
}

extension PaintedMedia.Video {
    /// The same video with a display-matrix rotation (degrees, as ffprobe reports it).
    func rotated(_ degrees: Double) -> Self {
        var copy = self
        copy.rotation = degrees
        return copy
    }
}
