import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }
private func r(_ start: Int64, _ end: Int64) -> TimeRange { F.range(s(start), s(end)) }

/// The AVFoundation habits a port brings along: each test is a line of a tutorial's code, written as AVFoundation
/// code is. The video composition's: VideoCompositionTests' PortingVideoCompositionTests.
@Suite("Porting from AVFoundation")
struct PortingAPITests {
    let portrait = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 1080, ty: 0)

    @Test func preferredTrackIDZeroPicksAnID() throws {
        var composition = MutableComposition()
        // The tutorial: addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid).
        #expect(try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 0) == 1)
        #expect(try composition.addMutableTrack(withMediaType: .audio, preferredTrackID: MutableComposition.invalidTrackID) == 2)
        #expect(try composition.addMutableTrack(withMediaType: .audio, preferredTrackID: 7) == 7)
        #expect(try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 0) == 8)
        #expect(composition.tracks.map(\.trackID) == [1, 2, 7, 8])
        #expect(throws: CompositionError.invalidTrackID(-1)) {
            try composition.addMutableTrack(withMediaType: .video, preferredTrackID: -1)
        }
    }

    @Test func modifyTrackEditsOneTrackInPlace() throws {
        let clip = F.video("a.mov", duration: s(4))
        var composition = MutableComposition()
        let videoID = try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 0)
        let end = try composition.modifyTrack(withID: videoID) { track in
            try track.insertTimeRange(r(1, 3), of: clip, at: .zero)
            try track.insertTimeRange(r(0, 1), of: clip, at: s(2))
            track.preferredVolume = 0.5
            return track.timeRange.end
        }
        #expect(end == s(3))
        let track = try #require(composition.track(withTrackID: videoID))
        F.expectSegments(track, [F.media(clip, r(1, 3), r(0, 2)), F.media(clip, r(0, 1), r(2, 3))])
        #expect(track.preferredVolume == 0.5)

        // Atomic: a throw after a successful edit leaves the track as it was.
        let before = composition
        #expect(throws: CompositionError.self) {
            try composition.modifyTrack(withID: videoID) { track in
                try track.insertTimeRange(r(0, 1), of: clip, at: .zero)
                try track.insertTimeRange(r(3, 9), of: clip, at: .zero)  // beyond the 4 s source
            }
        }
        #expect(composition == before)
        #expect(throws: CompositionError.unknownTrackID(9)) { try composition.modifyTrack(withID: 9) { _ in } }
        // Replacing the track with one whose ID is taken would break unique IDs.
        let audioID = try composition.addMutableTrack(withMediaType: .audio)
        #expect(throws: CompositionError.trackIDInUse(audioID)) {
            try composition.modifyTrack(withID: videoID) { track in track = try CompositionTrack(trackID: audioID, mediaType: .video) }
        }
    }

    /// AVFoundation returns the portrait clip's track for a landscape H.264 clip (same media type, a format the
    /// track decodes); size and orientation are the layer instruction's job.
    @Test func compatibleTrackIgnoresSizeAndOrientation() throws {
        let portraitClip = F.video("p.mov", duration: s(2), size: Size(width: 1920, height: 1080), transform: portrait)
        let landscapeClip = F.video("l.mov", trackID: 1, duration: s(3), size: Size(width: 1280, height: 720))
        var composition = MutableComposition()
        let videoID = try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 0)
        try composition.insertTimeRange(r(0, 2), of: portraitClip, at: .zero, intoTrackWithID: videoID)
        #expect(composition.mutableTrack(compatibleWith: landscapeClip) == videoID)
        #expect(composition.mutableTrack(compatibleWith: F.video("h.mov", duration: s(1), codec: "hevc")) == nil)
        #expect(composition.mutableTrack(compatibleWith: F.audio("a.mov", duration: s(1))) == nil)
        let audioID = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(r(0, 1), of: F.audio("a.mov", duration: s(1)), at: .zero, intoTrackWithID: audioID)
        #expect(composition.mutableTrack(compatibleWith: F.audio("b.mov", duration: s(1), sampleRate: 48000, channels: 2)) == audioID)
        #expect(composition.mutableTrack(compatibleWith: F.audio("c.mov", duration: s(1), codec: "opus")) == nil)

        // The stricter rule the whole-asset insert uses keeps orientations apart.
        let track = try #require(composition.track(withTrackID: videoID))
        #expect(track.isCompatible(with: landscapeClip) && !track.sharesFormat(with: landscapeClip))
        #expect(track.sharesFormat(with: portraitClip))
    }
}
