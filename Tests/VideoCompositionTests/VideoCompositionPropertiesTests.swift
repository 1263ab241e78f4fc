import Foundation
import Testing
import Composition
@testable import VideoComposition

private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }
private func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange { TimeRange(start: start, end: end) }

/// Composition tracks shaped like the clips in /work/shared/media (their README gives each file's facts).
enum SharedMediaTracks {
    /// M01: iPhone 4S, coded 568 × 320, rotation −90 (shows 320 × 568), timescale 600, 1321/600 s, frames 20/600 s.
    static let iPhonePortraitTransform = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0)
    /// M03: Android, 1280 × 720, rotation 180.
    static let androidUpsideDownTransform = AffineTransform2D(a: -1, b: 0, c: 0, d: -1, tx: 1280, ty: 720)
    /// M02: Android, coded 1920 × 1080, rotation −90 (shows 1080 × 1920).
    static let androidPortraitTransform = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 1080, ty: 0)

    /// A video track whose clip of `duration` starts at composition time `start` (an empty segment before it).
    static func video(
        _ trackID: Int32, naturalSize: Size, transform: AffineTransform2D, duration: MediaTime, minFrameDuration: MediaTime?,
        at start: MediaTime = .zero
    ) -> CompositionSummary.Track {
        var segments = [CompositionSummary.Segment(target: TimeRange(start: start, duration: duration))]
        if start > .zero { segments.insert(.init(target: range(.zero, start), isEmpty: true), at: 0) }
        return CompositionSummary.Track(
            trackID: trackID, mediaType: .video, timeRange: range(.zero, start + duration), segments: segments,
            naturalSize: naturalSize, preferredTransform: transform, minFrameDuration: minFrameDuration)
    }

    static func iPhone(_ trackID: Int32, at start: MediaTime = .zero) -> CompositionSummary.Track {
        video(trackID, naturalSize: Size(width: 568, height: 320), transform: iPhonePortraitTransform,
              duration: s(1321, 600), minFrameDuration: s(20, 600), at: start)
    }

    static func androidUpsideDown(_ trackID: Int32, at start: MediaTime = .zero) -> CompositionSummary.Track {
        video(trackID, naturalSize: Size(width: 1280, height: 720), transform: androidUpsideDownTransform,
              duration: s(214_179, 90000), minFrameDuration: s(7200, 90000), at: start)
    }

    /// M08: 1280 × 720 landscape, 82 frames of 1001/30000 s.
    static func landscape(_ trackID: Int32, at start: MediaTime = .zero) -> CompositionSummary.Track {
        video(trackID, naturalSize: Size(width: 1280, height: 720), transform: .identity,
              duration: s(82082, 30000), minFrameDuration: s(1001, 30000), at: start)
    }

    static func androidPortrait(_ trackID: Int32) -> CompositionSummary.Track {
        video(trackID, naturalSize: Size(width: 1920, height: 1080), transform: androidPortraitTransform,
              duration: s(17645, 90000), minFrameDuration: nil)
    }

    static func audio(_ trackID: Int32, duration: MediaTime) -> CompositionSummary.Track {
        CompositionSummary.Track(
            trackID: trackID, mediaType: .audio, timeRange: range(.zero, duration),
            segments: [.init(target: range(.zero, duration))])
    }
}

/// True when `point` is within 1e-9 pixel of `(x, y)`.
private func at(_ point: Point, _ x: Double, _ y: Double) -> Bool {
    abs(point.x - x) <= 1e-9 && abs(point.y - y) <= 1e-9
}

@Suite("AffineTransform2D.placing: aspect fit / fill / stretch")
struct VideoCompositionPlacementTests {
    @Test func iPhonePortraitIsUprightAndPillarboxedInA720pCanvas() throws {
        let transform = try #require(AffineTransform2D.placing(
            naturalSize: Size(width: 568, height: 320), preferredTransform: SharedMediaTracks.iPhonePortraitTransform,
            in: Size(width: 1280, height: 720), mode: .fit))
        // The upright 320 × 568 picture is scaled by 720/568 to 405.63… × 720 and centred: x from 437.18… to 842.81….
        // The coded frame's left column becomes the picture's top row (rotation −90 means "turn 90° clockwise").
        #expect(at(transform.apply(to: Point(x: 0, y: 320)), 437.1830985915493, 0))  // coded bottom-left → top-left
        #expect(at(transform.apply(to: Point(x: 0, y: 0)), 842.8169014084508, 0))  // coded top-left → top-right
        #expect(at(transform.apply(to: Point(x: 568, y: 0)), 842.8169014084508, 720))  // coded top-right → bottom-right
        #expect(at(transform.apply(to: Point(x: 568, y: 320)), 437.1830985915493, 720))  // coded bottom-right → bottom-left
    }

    @Test func fitFillAndStretchALandscapePictureIntoASquare() throws {
        let size = Size(width: 1280, height: 720), square = Size(width: 720, height: 720)
        let fit = try #require(AffineTransform2D.placing(naturalSize: size, in: square, mode: .fit))
        #expect(fit == AffineTransform2D(a: 0.5625, b: 0, c: 0, d: 0.5625, tx: 0, ty: 157.5))
        let fill = try #require(AffineTransform2D.placing(naturalSize: size, in: square, mode: .fill))
        #expect(fill == AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: -280, ty: 0))
        let stretch = try #require(AffineTransform2D.placing(naturalSize: size, in: square, mode: .stretch))
        #expect(stretch == AffineTransform2D(a: 0.5625, b: 0, c: 0, d: 1, tx: 0, ty: 0))
    }

    @Test func upsideDownAndAnamorphicPictures() throws {
        let upsideDown = try #require(AffineTransform2D.placing(
            naturalSize: Size(width: 1280, height: 720), preferredTransform: SharedMediaTracks.androidUpsideDownTransform,
            in: Size(width: 1920, height: 1080)))
        #expect(upsideDown.apply(to: Point(x: 0, y: 0)) == Point(x: 1920, y: 1080))
        #expect(upsideDown.apply(to: Point(x: 1280, y: 720)) == Point(x: 0, y: 0))
        // 720 × 576 PAL 16:9 (pixels 64:45 wide) displays as 1024 × 576.
        let pal = try #require(AffineTransform2D.placing(
            naturalSize: Size(width: 720, height: 576), pixelAspectRatio: PixelAspectRatio(horizontalSpacing: 64, verticalSpacing: 45),
            in: Size(width: 1024, height: 576)))
        #expect(at(pal.apply(to: Point(x: 720, y: 576)), 1024, 576))
        #expect(at(pal.apply(to: Point(x: 0, y: 0)), 0, 0))
    }

    @Test func noPlacementForAnEmptyPictureOrCanvas() {
        #expect(AffineTransform2D.placing(naturalSize: .zero, in: Size(width: 640, height: 480)) == nil)
        #expect(AffineTransform2D.placing(naturalSize: Size(width: 640, height: 480), in: .zero) == nil)
    }
}

@Suite("MutableVideoComposition(propertiesOf:)")
struct VideoCompositionPropertiesTests {
    /// iPhone portrait (track 1) from 0, Android upside down (track 2) from 2 s overlapping it, 1280 × 720
    /// landscape (track 3) from 4 s overlapping track 2, and an audio track.
    let mixed = CompositionSummary(tracks: [
        SharedMediaTracks.iPhone(1),
        SharedMediaTracks.androidUpsideDown(2, at: s(2)),
        SharedMediaTracks.landscape(3, at: s(4)),
        SharedMediaTracks.audio(4, duration: s(6)),
    ])

    @Test func mixedPhoneFootage() throws {
        #expect(mixed.duration == s(4) + s(82082, 30000))
        let video = MutableVideoComposition(propertiesOf: mixed)
        #expect(video.renderSize == Size(width: 1280, height: 720))
        #expect(video.frameDuration == s(1, 30))  // the iPhone's 20/600 s is the shortest frame
        #expect(video.backgroundColor == .black)
        #expect(video.overlays.isEmpty)

        // One instruction per span with the same active tracks, tiling [0, duration).
        let end = s(4) + s(82082, 30000)
        #expect(video.instructions.map(\.timeRange) == [
            range(.zero, s(2)), range(s(2), s(1321, 600)), range(s(1321, 600), s(4)),
            range(s(4), s(2) + s(214_179, 90000)), range(s(2) + s(214_179, 90000), end),
        ])
        #expect(video.instructions.map(\.requiredSourceTrackIDs) == [[1], [1, 2], [2], [2, 3], [3]])
        #expect(video.validate(for: mixed) == [])

        // The iPhone picture: upright, scaled by 720/568, pillarboxed.
        let iPhone = try #require(video.instructions[1].layerInstruction(forTrackID: 1)).transform(at: s(2))
        #expect(at(iPhone.apply(to: Point(x: 0, y: 320)), 437.1830985915493, 0))
        #expect(at(iPhone.apply(to: Point(x: 568, y: 320)), 437.1830985915493, 720))
        #expect(at(iPhone.apply(to: Point(x: 0, y: 0)), 842.8169014084508, 0))
        #expect(at(iPhone.apply(to: Point(x: 568, y: 0)), 842.8169014084508, 720))

        // The Android picture: turned the right way up, filling the canvas exactly.
        let android = try #require(video.instructions[2].layerInstruction(forTrackID: 2)).transform(at: s(3))
        #expect(android == SharedMediaTracks.androidUpsideDownTransform)
        #expect(android.apply(to: Point(x: 0, y: 0)) == Point(x: 1280, y: 720))
        #expect(android.apply(to: Point(x: 1280, y: 720)) == Point(x: 0, y: 0))
        #expect(android.apply(to: Point(x: 1280, y: 0)) == Point(x: 0, y: 720))

        // The landscape picture: as is.
        #expect(try #require(video.instructions[4].layerInstruction(forTrackID: 3)).transform(at: s(6)) == .identity)
        #expect(video.instructions.allSatisfy { instruction in
            instruction.layerInstructions.allSatisfy { $0.isTransformConstant(in: instruction.timeRange) }
        })
    }

    @Test func aSinglePortraitClipGetsAPortraitCanvas() throws {
        let summary = CompositionSummary(tracks: [SharedMediaTracks.androidPortrait(1)])
        let video = MutableVideoComposition(propertiesOf: summary)
        #expect(video.renderSize == Size(width: 1080, height: 1920))
        #expect(video.frameDuration == s(1, 30))  // no source frame duration known
        #expect(video.instructions.count == 1)
        let transform = try #require(video.instructions[0].layerInstructions.first).transform(at: .zero)
        #expect(transform == SharedMediaTracks.androidPortraitTransform)
        #expect(transform.apply(to: Point(x: 0, y: 1080)) == Point(x: 0, y: 0))
        #expect(transform.apply(to: Point(x: 1920, y: 0)) == Point(x: 1080, y: 1920))
    }

    @Test func theCompositionsNaturalSizeWinsWhenSet() throws {
        let summary = CompositionSummary(naturalSize: Size(width: 1920, height: 1080), tracks: [SharedMediaTracks.landscape(1)])
        let video = MutableVideoComposition(propertiesOf: summary)
        #expect(video.renderSize == Size(width: 1920, height: 1080))
        #expect(video.frameDuration == s(1001, 30000))
        let transform = try #require(video.instructions.first?.layerInstructions.first).transform(at: .zero)
        #expect(transform == AffineTransform2D(a: 1.5, b: 0, c: 0, d: 1.5, tx: 0, ty: 0))
    }

    @Test func oddDisplaySizesAreRoundedUpToEven() {
        let odd = SharedMediaTracks.video(1, naturalSize: Size(width: 321, height: 241), transform: .identity, duration: s(1), minFrameDuration: s(1, 25))
        let video = MutableVideoComposition(propertiesOf: CompositionSummary(tracks: [odd]))
        #expect(video.renderSize == Size(width: 322, height: 242))
        #expect(video.frameDuration == s(1, 25))
        #expect(video.validate(for: CompositionSummary(tracks: [odd])) == [])
    }

    @Test func spansWithoutVideoHaveNoLayersAndDisabledTracksAreSkipped() {
        var hidden = SharedMediaTracks.landscape(2)
        hidden.isEnabled = false
        let summary = CompositionSummary(tracks: [
            SharedMediaTracks.landscape(1, at: s(1)), hidden, SharedMediaTracks.audio(3, duration: s(5)),
        ])
        let video = MutableVideoComposition(propertiesOf: summary)
        #expect(video.instructions.map(\.timeRange) == [range(.zero, s(1)), range(s(1), s(1) + s(82082, 30000)), range(s(1) + s(82082, 30000), s(5))])
        #expect(video.instructions.map(\.requiredSourceTrackIDs) == [[], [1], []])
        #expect(video.validate(for: summary) == [])
    }

    @Test func noVideoAtAll() {
        let summary = CompositionSummary(tracks: [SharedMediaTracks.audio(1, duration: s(2))])
        let video = MutableVideoComposition(propertiesOf: summary)
        #expect(video.renderSize == .zero)
        #expect(video.instructions.map(\.requiredSourceTrackIDs) == [[]])
        #expect(video.validate(for: summary).map(\.kind) == [.invalidRenderSize])
        #expect(MutableVideoComposition(propertiesOf: CompositionSummary(tracks: [])).instructions.isEmpty)
    }

    @Test func crossDissolveBuilder() {
        let dissolve = VideoCompositionInstruction.crossDissolve(
            from: 1, to: 2, timeRange: range(s(2), s(3)), incomingTransform: AffineTransform2D(translationX: 0, y: 10))
        #expect(dissolve.timeRange == range(s(2), s(3)))
        #expect(dissolve.requiredSourceTrackIDs == [1, 2])  // outgoing on top
        let outgoing = dissolve.layerInstructions[0], incoming = dissolve.layerInstructions[1]
        #expect(outgoing.opacity(at: s(2)) == 1)
        #expect(outgoing.opacity(at: s(9, 4)) == 0.75)
        #expect(outgoing.opacity(at: s(3)) == 0)
        #expect(incoming.opacity(at: s(9, 4)) == 1)
        #expect(incoming.transform(at: s(2)) == AffineTransform2D(translationX: 0, y: 10))
        #expect(outgoing.transform(at: s(2)) == .identity)
    }
}
