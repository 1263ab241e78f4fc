import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Passthrough of plain cuts: several segments, from one file or several with equal codec parameters, copied
/// back to back; refusals name the segment and the cause.
///
/// The sources are the canonical clips (Fixtures/README.md): H.264 640x360 30 fps with x264's B-frames, key frames
/// at 0, 1, 2, 3 s; clipA has a red key patch at x 128..191, y 64..127, clipB a blue one; both have the same SPS/PPS.
/// Decoding orders (frame numbers): clipA starts 0 3 1 2 5 4 7 6 8 9 10 …, clipB 0 4 2 1 3 8 6 5 7 12 …, so a cut
/// after frame 8 (at 0.3 s) keeps a prefix of the decoding order in both, and a cut at 0.1 s does not.
@Suite("Passthrough joins")
struct PassthroughJoinTests {
    static func frames(_ count: Int64) -> MediaTime { MediaTime(value: count, timescale: 30) }
    static func range(_ start: Int64, _ end: Int64) -> TimeRange { TimeRange(start: frames(start), end: frames(end)) }

    /// A composition with one video track made of `cuts` (asset, source frames [start, end)) back to back, and,
    /// when `audio` is given, one audio track made of those cuts.
    static func composition(video cuts: [(Asset, TimeRange)], audio: [(Asset, TimeRange)] = []) throws -> MutableComposition {
        var composition = MutableComposition()
        let video = try composition.addMutableTrack(withMediaType: .video)
        var at = MediaTime.zero
        for (asset, range) in cuts {
            let track = try #require(asset.tracks(withMediaType: .video).first)
            try composition.insertTimeRange(range, of: track, at: at, intoTrackWithID: video)
            at = at + range.duration
        }
        if !audio.isEmpty {
            let sound = try composition.addMutableTrack(withMediaType: .audio)
            at = .zero
            for (asset, range) in audio {
                let track = try #require(asset.tracks(withMediaType: .audio).first)
                try composition.insertTimeRange(range, of: track, at: at, intoTrackWithID: sound)
                at = at + range.duration
            }
        }
        return composition
    }

    static func refusal(_ composition: MutableComposition, in scratch: ScratchDirectory) async -> String? {
        do {
            try await PassthroughTests.export(composition, to: scratch.file("out.mp4"))
            return nil
        } catch ExportError.passthroughNotPossible(let reason) {
            return reason
        } catch {
            return "unexpected error: \(error)"
        }
    }

    @Test func cutsOfTwoFilesAreJoinedBackToBackWithEveryPacketCopied() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        let clipB = try await Fixture.asset("canonical/clipB.mp4")
        // Video: clipA 1 s..2 s (30 frames), clipB 0..0.3 s (9), clipA 0..0.3 s (9) = 48 frames, 1.6 s.
        // Audio: clipA 1 s..2 s then clipA 0..0.6 s, from one file: 1.6 s.
        let composition = try Self.composition(
            video: [(clipA, Self.range(30, 60)), (clipB, Self.range(0, 9)), (clipA, Self.range(0, 9))],
            audio: [(clipA, Self.range(30, 60)), (clipA, Self.range(0, 18))])
        let output = scratch.file("out.mp4")
        try await PassthroughTests.export(composition, to: output)
        #expect(scratch.contents == ["out.mp4"])

        let copy = try await Asset.load(from: output)
        let video = try #require(copy.tracks(withMediaType: .video).first)
        #expect(video.video?.frameCount == 48)
        #expect(video.timeRange.duration == Self.frames(48), "\(video.timeRange.duration)")
        #expect(video.codecName == "h264")
        let audio = try #require(copy.tracks(withMediaType: .audio).first)
        #expect(audio.audio?.sampleRate == 48_000)
        // Exact to the packet: within one AAC packet (1024 samples) of 1.6 s.
        #expect(abs(audio.timeRange.duration.seconds - 1.6) <= 1024.0 / 48_000, "\(audio.timeRange.duration)")

        // The first and last picture of each piece decode to exactly the source's pictures (zero difference: the
        // packets are the source's, and every reference a kept picture needs was kept).
        let outputTimes: [Int64] = [0, 29, 30, 38, 39, 47]
        let sourceTimes: [(URL, Int64)] = [
            (Fixture.url("canonical/clipA.mp4"), 30), (Fixture.url("canonical/clipA.mp4"), 59),
            (Fixture.url("canonical/clipB.mp4"), 0), (Fixture.url("canonical/clipB.mp4"), 8),
            (Fixture.url("canonical/clipA.mp4"), 0), (Fixture.url("canonical/clipA.mp4"), 8),
        ]
        let copied = try await Readback.frames(of: output, at: outputTimes.map(Self.frames))
        for (index, (url, frame)) in sourceTimes.enumerated() {
            let source = try await Readback.frames(of: url, at: [Self.frames(frame)])[0]
            #expect(copied[index] == source, "output frame \(outputTimes[index]) differs from \(url.lastPathComponent) frame \(frame)")
        }
        // And the pieces are where they belong: red patch, blue patch, red patch.
        let patch = Rect(x: 136, y: 72, width: 48, height: 48)
        #expect(colorMatches(copied[0].meanColor(in: patch), (255, 0, 0), tolerance: 4))
        #expect(colorMatches(copied[2].meanColor(in: patch), (0, 0, 255), tolerance: 4))
        #expect(colorMatches(copied[4].meanColor(in: patch), (255, 0, 0), tolerance: 4))
        // Two pieces of one source are never the same frames: clipA frame 30 and frame 0 differ (moving pattern).
        #expect(copied[0] != copied[4])
    }

    @Test func aSegmentStartingBetweenKeyFramesIsRefusedNamingTheNearestKeyFrames() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        let composition = try Self.composition(video: [(clipA, Self.range(0, 30)), (clipA, Self.range(45, 60))])
        let reason = await Self.refusal(composition, in: scratch)
        #expect(reason?.contains("segments[1] of track 1") == true, "\(reason ?? "no error")")
        #expect(reason?.contains("starts at 1.500 s") == true, "\(reason ?? "no error")")
        #expect(reason?.contains("not on a key frame (nearest key frames 1.000 s / 2.000 s)") == true, "\(reason ?? "no error")")
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test func anEndInsideReorderedPicturesIsRefusedNamingEndsThatWork() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clipB = try await Fixture.asset("canonical/clipB.mp4")
        // clipB frames 0..2: frame 4 is decoded before frames 2 and 1, so cutting at frame 3 would keep pictures
        // that depend on a dropped one. Frames 0..4 (end 0.167 s) or frame 0 alone (end 0.033 s) work.
        let composition = try Self.composition(video: [(clipB, Self.range(0, 3)), (clipB, Self.range(30, 60))])
        let reason = await Self.refusal(composition, in: scratch)
        #expect(reason?.contains("segments[0] of track 1") == true, "\(reason ?? "no error")")
        #expect(reason?.contains("ends at 0.100 s") == true, "\(reason ?? "no error")")
        #expect(reason?.contains("end the segment at 0.033 s or 0.167 s") == true, "\(reason ?? "no error")")
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")

        // The suggested end works.
        let fixed = try Self.composition(video: [(clipB, Self.range(0, 5)), (clipB, Self.range(30, 60))])
        try await PassthroughTests.export(fixed, to: scratch.file("fixed.mp4"))
        let copy = try await Asset.load(from: scratch.file("fixed.mp4"))
        #expect(copy.tracks(withMediaType: .video).first?.video?.frameCount == 35)
    }

    @Test func differentAudioParametersAreRefusedNamingBothSegments() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        let clipB = try await Fixture.asset("canonical/clipB.mp4")
        let composition = try Self.composition(
            video: [(clipA, Self.range(0, 30)), (clipB, Self.range(0, 30))],
            audio: [(clipA, Self.range(0, 30)), (clipB, Self.range(0, 30))])
        let reason = await Self.refusal(composition, in: scratch)
        #expect(reason?.contains("segments[0] of track 2 (clipA.mp4") == true, "\(reason ?? "no error")")
        #expect(reason?.contains("segments[1] of track 2 (clipB.mp4") == true, "\(reason ?? "no error")")
        #expect(reason?.contains("sample rate 48000 Hz vs 44100 Hz") == true, "\(reason ?? "no error")")
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test func differentVideoParametersAreRefused() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        let small = try await Fixture.asset("rates/no-audio-25.mp4")  // 320x240
        let composition = try Self.composition(video: [(clipA, Self.range(0, 30)), (small, TimeRange(start: .zero, duration: MediaTime(seconds: 1)))])
        let reason = await Self.refusal(composition, in: scratch)
        #expect(reason?.contains("size 640x360 vs 320x240 pixels") == true, "\(reason ?? "no error")")
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test func speedChangesAndGapsAreRefusedNamingTheSegment() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clipA = try await Fixture.asset("canonical/clipA.mp4")
        var faster = try Self.composition(video: [(clipA, Self.range(0, 30)), (clipA, Self.range(60, 90))])
        try faster.scaleTimeRange(TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1)),
                                  toDuration: MediaTime(value: 1, timescale: 2))
        let speed = await Self.refusal(faster, in: scratch)
        #expect(speed?.contains("segments[1] of track 1 (clipA.mp4 track 1) plays at speed 2.0 from 1.000 s") == true,
                "\(speed ?? "no error")")

        var gap = try Self.composition(video: [(clipA, Self.range(0, 30)), (clipA, Self.range(60, 90))])
        try gap.insertEmptyTimeRange(TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(value: 1, timescale: 2)))
        let hole = await Self.refusal(gap, in: scratch)
        #expect(hole?.contains("segments[1] of track 1 is empty (1.000 s to 1.500 s in the export); a gap cannot be stream-copied") == true,
                "\(hole ?? "no error")")
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test func cleanEndsKeepAPrefixOfTheDecodingOrder() {
        // clipB's first pictures in decoding order: a cut is clean after picture 0 (end 1) and after the run 4 2 1 3
        // (end 5); after 8 6 5 7 the end would be the next group's first picture, not read here.
        #expect(PassthroughPieceReader.cleanEnds(decodingOrder: [0, 4, 2, 1, 3, 8, 6, 5, 7]) == [1, 5])
        // Without B-frames every picture boundary is clean.
        #expect(PassthroughPieceReader.cleanEnds(decodingOrder: [0, 1, 2, 3]) == [1, 2, 3])
        #expect(PassthroughPieceReader.cleanEnds(decodingOrder: [7]).isEmpty)
    }
}
