import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }
private func r(_ start: MediaTime, _ end: MediaTime) -> TimeRange { F.range(start, end) }
private func r(_ start: Int64, _ end: Int64) -> TimeRange { F.range(s(start), s(end)) }

@Suite("MutableComposition")
struct MutableCompositionTests {
    // An iPhone 4S clip as shared/media's M01 describes it: audio first (AAC mono 44.1 kHz, 2.180 s), then portrait
    // video (568x320 rotated -90, timescale 600, 1321/600 s).
    let portrait = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0)
    var phoneAudio: AssetTrack { F.audio("m01.mov", trackID: 1, duration: s(109, 50)) }
    var phoneVideo: AssetTrack {
        F.video("m01.mov", trackID: 2, duration: s(1321, 600), size: Size(width: 568, height: 320), transform: portrait)
    }
    var phone: Asset { F.asset("m01.mov", tracks: [phoneAudio, phoneVideo]) }

    // A landscape clip with video and audio, 4 s each.
    var landscapeVideo: AssetTrack { F.video("x.mov", trackID: 1, duration: s(4)) }
    var landscapeAudio: AssetTrack { F.audio("x.mov", trackID: 2, duration: s(4)) }
    var landscape: Asset { F.asset("x.mov", tracks: [landscapeVideo, landscapeAudio]) }

    // MARK: - Tracks

    @Test func trackIDs() throws {
        var composition = MutableComposition()
        #expect(try composition.addMutableTrack(withMediaType: .video) == 1)
        #expect(try composition.addMutableTrack(withMediaType: .audio) == 2)
        #expect(try composition.addMutableTrack(withMediaType: .audio, preferredTrackID: 10) == 10)
        #expect(try composition.addMutableTrack(withMediaType: .video) == 11)
        #expect(throws: CompositionError.trackIDInUse(10)) {
            try composition.addMutableTrack(withMediaType: .video, preferredTrackID: 10)
        }
        #expect(throws: CompositionError.invalidTrackID(-3)) {
            try composition.addMutableTrack(withMediaType: .video, preferredTrackID: -3)
        }
        #expect(throws: CompositionError.unsupportedMediaType(.data)) {
            try composition.addMutableTrack(withMediaType: .data)
        }
        #expect(composition.tracks.map(\.trackID) == [1, 2, 10, 11])
        #expect(composition.tracks(withMediaType: .audio).map(\.trackID) == [2, 10])
        #expect(composition.track(withTrackID: 10)?.mediaType == .audio)
        #expect(composition.track(withTrackID: 3) == nil)

        try composition.removeTrack(withTrackID: 2)
        #expect(composition.tracks.map(\.trackID) == [1, 10, 11])
        #expect(throws: CompositionError.unknownTrackID(2)) { try composition.removeTrack(withTrackID: 2) }
        // A freed ID below the highest is not handed out again.
        #expect(try composition.addMutableTrack(withMediaType: .audio) == 12)
        #expect(composition.duration == .zero)
    }

    @Test func durationIsTheLatestTrackEnd() throws {
        var composition = MutableComposition(naturalSize: Size(width: 1280, height: 720))
        let video = try composition.addMutableTrack(withMediaType: .video)
        let audio = try composition.addMutableTrack(withMediaType: .audio)
        #expect(composition.duration == .zero)
        try composition.insertTimeRange(r(0, 3), of: landscapeVideo, at: .zero, intoTrackWithID: video)
        try composition.insertTimeRange(r(0, 4), of: landscapeAudio, at: s(1), intoTrackWithID: audio)
        #expect(composition.duration == s(5))
        #expect(composition.naturalSize == Size(width: 1280, height: 720))
        #expect(throws: CompositionError.unknownTrackID(42)) {
            try composition.insertTimeRange(r(0, 1), of: landscapeVideo, at: .zero, intoTrackWithID: 42)
        }
    }

    @Test func updateTrackIsAllOrNothing() throws {
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .audio)
        try composition.updateTrack(withTrackID: id) { track in
            track.preferredVolume = 0.5
            track.isEnabled = false
            try track.insertTimeRange(r(0, 2), of: landscapeAudio, at: .zero)
        }
        #expect(composition.track(withTrackID: id)?.preferredVolume == 0.5)
        #expect(composition.track(withTrackID: id)?.isEnabled == false)
        let before = composition
        #expect(throws: CompositionError.nonPositiveDuration(trackID: id, parameter: "timeRange.duration", duration: .zero)) {
            try composition.updateTrack(withTrackID: id) { track in
                track.preferredVolume = 2
                try track.removeTimeRange(r(0, 1))
                try track.removeTimeRange(r(1, 1))
            }
        }
        #expect(composition == before)
        #expect(throws: CompositionError.unknownTrackID(9)) { try composition.updateTrack(withTrackID: 9) { _ in } }
    }

    // MARK: - Whole-asset insert

    @Test func insertingAnAssetAddsATrackPerSourceTrackInAssetOrder() throws {
        var composition = MutableComposition()
        try composition.insertTimeRange(r(s(0), phone.duration), of: phone, at: .zero)
        #expect(composition.tracks.map(\.mediaType) == [.audio, .video])
        // The audio is 21.7 ms shorter: no trailing gap is left in its track.
        F.expectSegments(composition.track(withTrackID: 1), [F.media(phoneAudio, r(s(0), s(109, 50)), r(s(0), s(109, 50)))])
        F.expectSegments(composition.track(withTrackID: 2), [F.media(phoneVideo, r(s(0), s(1321, 600)), r(s(0), s(1321, 600)))])
        #expect(composition.duration == s(1321, 600))
        let video = try #require(composition.track(withTrackID: 2))
        #expect(video.preferredTransform == portrait)
        #expect(video.naturalSize == Size(width: 568, height: 320))
        #expect(video.naturalTimeScale == 600)
        #expect(composition.track(withTrackID: 1)?.naturalTimeScale == 44100)
    }

    @Test func appendingAndInsertingAnAssetKeepsTracksInSync() throws {
        let clip = s(1321, 600), sound = s(109, 50)
        var composition = MutableComposition()
        try composition.insertTimeRange(r(s(0), clip), of: phone, at: .zero)
        try composition.insertTimeRange(r(s(0), clip), of: phone, at: .invalid)  // appends at the composition's end
        F.expectSegments(composition.track(withTrackID: 1), [
            F.media(phoneAudio, r(s(0), sound), r(s(0), sound)), F.gap(r(sound, clip)),
            F.media(phoneAudio, r(s(0), sound), r(clip, clip + sound)),
        ])
        F.expectSegments(composition.track(withTrackID: 2), [
            F.media(phoneVideo, r(s(0), clip), r(s(0), clip)), F.media(phoneVideo, r(s(0), clip), r(clip, clip * 2)),
        ])

        // Into the middle, at 1 s: both tracks split at 1 s and ripple by the clip's duration.
        try composition.insertTimeRange(r(s(0), clip), of: phone, at: s(1))
        F.expectSegments(composition.track(withTrackID: 1), [
            F.media(phoneAudio, r(0, 1), r(0, 1)),
            F.media(phoneAudio, r(s(0), sound), r(s(1), s(1) + sound)), F.gap(r(s(1) + sound, s(1) + clip)),
            F.media(phoneAudio, r(s(1), sound), r(s(1) + clip, sound + clip)), F.gap(r(sound + clip, clip * 2)),
            F.media(phoneAudio, r(s(0), sound), r(clip * 2, clip * 2 + sound)),
        ])
        F.expectSegments(composition.track(withTrackID: 2), [
            F.media(phoneVideo, r(0, 1), r(0, 1)), F.media(phoneVideo, r(s(0), clip), r(s(1), s(1) + clip)),
            F.media(phoneVideo, r(s(1), clip), r(s(1) + clip, clip * 2)),
            F.media(phoneVideo, r(s(0), clip), r(clip * 2, clip * 3)),
        ])
        #expect(composition.duration == clip * 3)
        #expect(composition.tracks.count == 2)
    }

    @Test func anIncompatibleSourceGetsANewTrackAndEveryOtherTrackIsPushed() throws {
        var composition = MutableComposition()
        try composition.insertTimeRange(r(0, 4), of: landscape, at: .zero)
        let portraitOnly = F.asset("y.mov", tracks: [
            F.video("y.mov", duration: s(2), size: Size(width: 568, height: 320), transform: portrait),
        ])
        try composition.insertTimeRange(r(0, 2), of: portraitOnly, at: s(1))
        let y = portraitOnly.tracks[0]
        #expect(composition.tracks.map(\.trackID) == [1, 2, 3])
        F.expectSegments(composition.track(withTrackID: 3), [F.gap(r(0, 1)), F.media(y, r(0, 2), r(1, 3))])
        F.expectSegments(composition.track(withTrackID: 1), [
            F.media(landscapeVideo, r(0, 1), r(0, 1)), F.gap(r(1, 3)), F.media(landscapeVideo, r(1, 4), r(3, 6)),
        ])
        F.expectSegments(composition.track(withTrackID: 2), [
            F.media(landscapeAudio, r(0, 1), r(0, 1)), F.gap(r(1, 3)), F.media(landscapeAudio, r(1, 4), r(3, 6)),
        ])
        #expect(composition.track(withTrackID: 3)?.preferredTransform == portrait)

        // A compatible clip (same codec, size, transform) reuses track 1; tracks ending earlier are untouched.
        let z = F.asset("z.mov", tracks: [F.video("z.mov", duration: s(3))])
        try composition.insertTimeRange(r(0, 3), of: z, at: .invalid)
        F.expectSegments(composition.track(withTrackID: 1), [
            F.media(landscapeVideo, r(0, 1), r(0, 1)), F.gap(r(1, 3)), F.media(landscapeVideo, r(1, 4), r(3, 6)),
            F.media(z.tracks[0], r(0, 3), r(6, 9)),
        ])
        #expect(composition.track(withTrackID: 2)?.timeRange == r(0, 6))
        #expect(composition.track(withTrackID: 3)?.timeRange == r(0, 3))
        #expect(composition.duration == s(9))
    }

    @Test func anAssetWithTwoAudioTracksFillsTwoCompositionTracks() throws {
        let dual = F.asset("dual.mov", tracks: [
            F.video("dual.mov", trackID: 1, duration: s(2)),
            F.audio("dual.mov", trackID: 2, duration: s(2)),
            F.audio("dual.mov", trackID: 3, duration: s(2)),
            AssetTrack(
                assetURL: URL(fileURLWithPath: "/media/dual.mov"), trackID: 4, mediaType: .data,
                timeRange: r(0, 2), naturalTimeScale: 600, codecName: "", streamIndex: 3),
        ])
        var composition = MutableComposition()
        try composition.insertTimeRange(r(0, 2), of: dual, at: .zero)
        #expect(composition.tracks.map(\.mediaType) == [.video, .audio, .audio])
        #expect(composition.tracks(withMediaType: .audio).map { $0.segments.map(\.sourceTrackID) } == [[2], [3]])
    }

    @Test func aSourceTrackStartingLateIsPaddedAtBothEndsWhenInsertedMidTimeline() throws {
        // A track covering only [1, 3) of a 4 s asset: inserted into the middle it contributes a gap, its media
        // and a gap, so that it ripples by the full 4 s like the asset's other track.
        let late = AssetTrack(
            assetURL: URL(fileURLWithPath: "/media/late.mov"), trackID: 2, mediaType: .audio,
            timeRange: r(1, 3), naturalTimeScale: 44100, codecName: "aac", streamIndex: 1,
            audio: AudioTrackFormat(sampleRate: 44100, channelCount: 1, channelLayout: "mono"))
        let video = F.video("late.mov", trackID: 1, duration: s(4))
        let asset = Asset(url: late.assetURL, duration: s(4), tracks: [video, late])
        var composition = MutableComposition()
        try composition.insertTimeRange(r(0, 4), of: landscape, at: .zero)
        try composition.insertTimeRange(r(0, 4), of: asset, at: s(2))
        F.expectSegments(composition.track(withTrackID: 2), [
            F.media(landscapeAudio, r(0, 2), r(0, 2)), F.gap(r(2, 3)), F.media(late, r(1, 3), r(3, 5)), F.gap(r(5, 6)),
            F.media(landscapeAudio, r(2, 4), r(6, 8)),
        ])
        // Appended, the trailing gap is dropped.
        try composition.insertTimeRange(r(0, 4), of: asset, at: .invalid)
        let audio = try #require(composition.track(withTrackID: 2))
        #expect(Array(audio.segments.suffix(2)) == [F.gap(r(8, 9)), F.media(late, r(1, 3), r(9, 11))])
        #expect(composition.track(withTrackID: 1)?.timeRange == r(0, 12))
    }

    @Test func mutableTrackCompatibleWith() throws {
        var composition = MutableComposition()
        try composition.insertTimeRange(r(0, 4), of: landscape, at: .zero)
        #expect(composition.mutableTrack(compatibleWith: F.video("other.mov", duration: s(1))) == 1)
        #expect(composition.mutableTrack(compatibleWith: F.audio("other.mov", duration: s(1))) == 2)
        // AVFoundation's rule: media type and codec; orientation, size, rate and channels are not the track's concern.
        #expect(composition.mutableTrack(compatibleWith: phoneVideo) == 1)  // rotated
        #expect(composition.mutableTrack(compatibleWith: F.video("hevc.mov", duration: s(1), codec: "hevc")) == nil)
        #expect(composition.mutableTrack(compatibleWith: F.audio("s.mov", duration: s(1), sampleRate: 48000)) == 2)
        #expect(composition.mutableTrack(compatibleWith: F.audio("s.mov", duration: s(1), channels: 2)) == 2)
        #expect(composition.mutableTrack(compatibleWith: F.audio("s.mov", duration: s(1), codec: "mp3")) == nil)
        let empty = try composition.addMutableTrack(withMediaType: .audio)
        #expect(composition.mutableTrack(compatibleWith: F.audio("s.mov", duration: s(1), codec: "mp3")) == empty)
    }

    @Test func aStillImageAssetCanBeInsertedForAnyDuration() throws {
        let photo = F.still("photo.jpg")
        let asset = Asset(url: photo.assetURL, duration: .positiveInfinity, tracks: [photo], formatName: "jpeg_pipe")
        var composition = MutableComposition()
        try composition.insertTimeRange(r(0, 4), of: landscape, at: .zero)
        try composition.insertTimeRange(r(0, 5), of: asset, at: .invalid)
        F.expectSegments(composition.track(withTrackID: 3), [F.gap(r(0, 4)), F.media(photo, r(0, 5), r(4, 9))])
        #expect(composition.duration == s(9))
    }

    @Test func aWholeAssetInsertThatFailsInOneTrackChangesNone() throws {
        // The audio track holds a boundary at 1/p s; pushing it by 1/q s (p, q distinct primes) has no exact
        // MediaTime, so the insert fails while planning the audio track, after the video track was planned.
        let p: Int32 = 2_147_483_647, q: Int32 = 2_147_483_629
        var composition = MutableComposition()
        let video = try composition.addMutableTrack(withMediaType: .video)
        let audio = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(r(0, 4), of: landscapeVideo, at: .zero, intoTrackWithID: video)
        try composition.insertTimeRange(r(s(0), s(1, p)), of: landscapeAudio, at: .zero, intoTrackWithID: audio)
        try composition.insertTimeRange(r(2, 3), of: landscapeAudio, at: .invalid, intoTrackWithID: audio)
        let before = composition
        #expect(throws: CompositionError.timeNotRepresentable(trackID: 2, operation: "insertTimeRange", time: s(1, p))) {
            try composition.insertTimeRange(r(s(0), s(1, q)), of: landscape, at: .zero)
        }
        #expect(composition == before)
    }

    @Test func wholeAssetInsertErrors() throws {
        var composition = MutableComposition()
        #expect(throws: CompositionError.rangeOutsideAsset(url: landscape.url, range: r(3, 5), assetDuration: s(4))) {
            try composition.insertTimeRange(r(3, 5), of: landscape, at: .zero)
        }
        let dataOnly = Asset(url: URL(fileURLWithPath: "/media/d.bin"), duration: s(2), tracks: [
            AssetTrack(
                assetURL: URL(fileURLWithPath: "/media/d.bin"), trackID: 1, mediaType: .data, timeRange: r(0, 2),
                naturalTimeScale: 1000, codecName: "", streamIndex: 0),
        ])
        #expect(throws: CompositionError.noComposableTracks(url: dataOnly.url)) {
            try composition.insertTimeRange(r(0, 1), of: dataOnly, at: .zero)
        }
        #expect(throws: CompositionError.nonPositiveDuration(trackID: nil, parameter: "timeRange.duration", duration: .zero)) {
            try composition.insertTimeRange(r(1, 1), of: landscape, at: .zero)
        }
        #expect(throws: CompositionError.negativeTime(trackID: nil, parameter: "startTime", time: s(-1))) {
            try composition.insertTimeRange(r(0, 1), of: landscape, at: s(-1))
        }
        #expect(composition == MutableComposition())
    }

    // MARK: - Composition-wide edits

    /// Video `[0, 6)` of the landscape clip (with the 4 s clip then 2 s more) and audio `[0, 2)`.
    private func twoTracks() throws -> MutableComposition {
        var composition = MutableComposition()
        let video = try composition.addMutableTrack(withMediaType: .video)
        let audio = try composition.addMutableTrack(withMediaType: .audio)
        try composition.insertTimeRange(r(0, 4), of: landscapeVideo, at: .zero, intoTrackWithID: video)
        try composition.insertTimeRange(r(0, 2), of: F.video("b.mov", duration: s(2)), at: .invalid, intoTrackWithID: video)
        try composition.insertTimeRange(r(0, 2), of: landscapeAudio, at: .zero, intoTrackWithID: audio)
        return composition
    }

    @Test func insertEmptyTimeRangeAffectsOnlyTracksThatExtendPastIt() throws {
        var composition = try twoTracks()
        try composition.insertEmptyTimeRange(r(3, 4))
        F.expectSegments(composition.track(withTrackID: 1), [
            F.media(landscapeVideo, r(0, 3), r(0, 3)), F.gap(r(3, 4)), F.media(landscapeVideo, r(3, 4), r(4, 5)),
            F.media(F.video("b.mov", duration: s(2)), r(0, 2), r(5, 7)),
        ])
        F.expectSegments(composition.track(withTrackID: 2), [F.media(landscapeAudio, r(0, 2), r(0, 2))])
        try composition.insertEmptyTimeRange(r(1, 2))
        F.expectSegments(composition.track(withTrackID: 2), [
            F.media(landscapeAudio, r(0, 1), r(0, 1)), F.gap(r(1, 2)), F.media(landscapeAudio, r(1, 2), r(2, 3)),
        ])
        #expect(throws: CompositionError.emptyRangeAtEnd(trackID: nil, range: r(8, 9), trackEnd: s(8))) {
            try composition.insertEmptyTimeRange(r(8, 9))
        }
        var empty = MutableComposition()
        #expect(throws: CompositionError.emptyRangeAtEnd(trackID: nil, range: r(0, 1), trackEnd: .zero)) {
            try empty.insertEmptyTimeRange(r(0, 1))
        }
    }

    @Test func removeTimeRangeRipplesEveryTrackAndKeepsThem() throws {
        var composition = try twoTracks()
        try composition.removeTimeRange(r(1, 5))
        F.expectSegments(composition.track(withTrackID: 1), [
            F.media(landscapeVideo, r(0, 1), r(0, 1)), F.media(F.video("b.mov", duration: s(2)), r(1, 2), r(1, 2)),
        ])
        F.expectSegments(composition.track(withTrackID: 2), [F.media(landscapeAudio, r(0, 1), r(0, 1))])
        try composition.removeTimeRange(r(0, 10))
        #expect(composition.tracks.count == 2)
        #expect(composition.tracks.allSatisfy { $0.segments.isEmpty })
        #expect(composition.duration == .zero)
        #expect(throws: CompositionError.nonPositiveDuration(trackID: nil, parameter: "timeRange.duration", duration: .zero)) {
            try composition.removeTimeRange(r(1, 1))
        }
    }

    @Test func scaleTimeRangeRetimesEveryTrackWithTheSameMap() throws {
        var composition = try twoTracks()
        try composition.scaleTimeRange(r(1, 3), toDuration: s(4))
        F.expectSegments(composition.track(withTrackID: 1), [
            F.media(landscapeVideo, r(0, 1), r(0, 1)), F.media(landscapeVideo, r(1, 3), r(1, 5)),
            F.media(landscapeVideo, r(3, 4), r(5, 6)), F.media(F.video("b.mov", duration: s(2)), r(0, 2), r(6, 8)),
        ])
        // The audio ends inside the range: its part [1, 2) is scaled by the same factor 2 and ends at 3.
        F.expectSegments(composition.track(withTrackID: 2), [
            F.media(landscapeAudio, r(0, 1), r(0, 1)), F.media(landscapeAudio, r(1, 2), r(1, 3)),
        ])
        #expect(composition.duration == s(8))
    }

    @Test func aFailingCompositionWideEditChangesNoTrack() throws {
        var composition = try twoTracks()
        try composition.updateTrack(withTrackID: 2) { try $0.scaleTimeRange(r(0, 2), toDuration: s(1, 16)) }  // 32x
        let before = composition
        #expect(throws: CompositionError.speedOutOfRange(trackID: 2, sourceRange: r(0, 2), targetRange: r(s(0), s(1, 32)))) {
            try composition.scaleTimeRange(r(s(0), s(1, 16)), toDuration: s(1, 32))
        }
        #expect(composition == before)
    }
}
