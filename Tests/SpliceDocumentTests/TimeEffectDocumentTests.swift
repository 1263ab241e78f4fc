import Composition
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing

/// Time effects in full-form documents: `reverse`, `freezeFrame` + `toDuration`, `speedRamp` — compiled to the
/// track editing calls, with problems at the segment's fields.
@Suite("Time effects (documents)")
struct TimeEffectDocumentTests {
    @Test func reverseFreezeAndRampCompileToEffectSegments() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "composition": { "tracks": [
                { "trackID": 1, "mediaType": "video", "segments": [
                  { "source": "clipA.mp4", "timeRange": { "start": "1s", "duration": "2s" }, "reverse": true },
                  { "source": "clipA.mp4", "freezeFrame": "0.5s", "toDuration": "1.5s" },
                  { "source": "clipA.mp4", "timeRange": { "start": "2s", "duration": "1.5s" },
                    "speedRamp": { "duration": "1s", "keyframes": [ { "time": "0s", "value": 1 }, { "time": "1s", "value": 2 } ] } }
                ] }
              ] } }
            """)
        let track = try #require(loaded.composition.track(withTrackID: 1))
        #expect(track.segments.map(\.timeMapping.target) == [.ms(0, 2000), .ms(2000, 3500), .ms(3500, 4500)])
        #expect(track.segments[0].timeEffect == .reverse)
        #expect(track.segments[0].timeMapping.source == .ms(1000, 3000))
        #expect(track.segments[1].timeEffect == .freezeFrame(.silence))
        #expect(track.segments[1].timeMapping.source.start == .ms(500))
        guard case .speedRamp(let ramp) = track.segments[2].timeEffect else {
            Issue.record("segment 2 is not ramped: \(String(describing: track.segments[2].timeEffect))")
            return
        }
        #expect(ramp.sourceDuration == .ms(1500))
        #expect(track.segments[2].timeMapping.source == .ms(2000, 3500))
    }

    @Test func freezeSoundRoomToneReachesTheAudioSegment() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "composition": { "tracks": [
                { "trackID": 2, "mediaType": "audio", "segments": [
                  { "source": "clipA.mp4", "freezeFrame": "0.5s", "toDuration": "1.5s", "freezeSound": "roomTone" },
                  { "source": "clipA.mp4", "freezeFrame": "0.5s", "toDuration": "1s", "freezeSound": "silence" }
                ] }
              ] } }
            """)
        let track = try #require(loaded.composition.track(withTrackID: 2))
        #expect(track.segments.map(\.timeEffect) == [.freezeFrame(.roomTone), .freezeFrame(.silence)])
        #expect(track.segments.map(\.timeMapping.target) == [.ms(0, 1500), .ms(1500, 2500)])
        let problems = try await TestDocument.problems("""
            { "version": 1,
              "composition": { "tracks": [
                { "trackID": 2, "mediaType": "audio", "segments": [
                  { "source": "clipA.mp4", "timeRange": { "start": "0s", "duration": "1s" }, "freezeSound": "roomTone" }
                ] }
              ] } }
            """)
        #expect(problems.map(\.description) == [
            "composition.tracks[0].segments[0].freezeSound: freezeSound is the sound of a freeze frame: set freezeFrame too",
        ])
    }

    @Test func problemsAreReportedAtTheEffectsFields() async throws {
        let problems = try await TestDocument.problems("""
            { "version": 1,
              "composition": { "tracks": [
                { "trackID": 1, "mediaType": "video", "segments": [
                  { "source": "clipA.mp4", "freezeFrame": "0.5s" },
                  { "source": "clipA.mp4", "at": "5s", "timeRange": { "start": "0s", "duration": "1s" },
                    "speedRamp": { "duration": "1s", "keyframes": [ { "time": "0s", "value": 1 }, { "time": "1s", "value": 2 } ] } },
                  { "source": "clipA.mp4", "at": "9s", "speedRamp": { "duration": "1s", "keyframes": [ { "time": "0.5s", "value": 1 } ] } }
                ] }
              ] } }
            """)
        #expect(problems.map(\.description) == [
            "composition.tracks[0].segments[0].toDuration: a freeze frame needs toDuration: how long the picture is held",
            "composition.tracks[0].segments[1].timeRange: the speed ramp reads 1.500 s of source, not 1.000 s: set timeRange.duration to 1.500 s or give only the start",
            "composition.tracks[0].segments[2].speedRamp: Composition track 1: segment 0's time effect is invalid: the speed ramp: the first keyframe is at 0.500 s (1/2), not at offset 0.",
        ])
    }
}

/// Time effects in the short form: `reverse`, `freezeFrame` and `speedRamp` on a clip.
@Suite("Time effects (short form)")
struct TimeEffectShortFormTests {
    @Test func clipsReverseFreezeAndRamp() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "clips": [ { "source": "clipA.mp4", "start": "1s", "duration": "2s", "reverse": true, "speed": 2 },
                         { "source": "clipA.mp4", "freezeFrame": "0.5s", "duration": "1.5s" },
                         { "source": "clipB.mp4", "start": "0.5s",
                           "speedRamp": { "duration": "2s", "keyframes": [ { "time": "0s", "value": 1 }, { "time": "1s", "value": 2 } ] } } ] }
            """)
        let video = try #require(loaded.composition.track(withTrackID: 1))
        #expect(video.segments.map(\.timeMapping.target) == [.ms(0, 1000), .ms(1000, 2500), .ms(2500, 4500)])
        #expect(video.segments.map(\.timeEffect?.kindName) == ["reverse", "freezeFrame", "speedRamp"])
        #expect(video.segments[0].timeMapping.source == .ms(1000, 3000), "2 s reversed at twice the speed")
        // 1 → 2 over 1 s then 2 for 1 s: 1.5 s + 2 s of source from 0.5 s.
        #expect(video.segments[2].timeMapping.source == .ms(500, 4000))
        let audio = try #require(loaded.composition.track(withTrackID: 2))
        #expect(audio.segments.map(\.timeEffect?.kindName) == ["reverse", nil, "speedRamp"], "the freeze is silent (a gap)")
    }

    @Test func aClipFreezeWithRoomToneHoldsItsSoundToo() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "clips": [ { "source": "clipA.mp4", "duration": "1s" },
                         { "source": "clipA.mp4", "freezeFrame": "1s", "duration": "2s", "freezeSound": "roomTone" } ] }
            """)
        let video = try #require(loaded.composition.track(withTrackID: 1))
        #expect(video.segments.map(\.timeMapping.target) == [.ms(0, 1000), .ms(1000, 3000)])
        let audio = try #require(loaded.composition.track(withTrackID: 2))
        #expect(audio.segments.map(\.timeEffect) == [nil, .freezeFrame(.roomTone)])
        #expect(audio.segments[1].timeMapping.target == .ms(1000, 3000))
        #expect(audio.segments[1].timeMapping.source.start == .ms(1000))
    }

    @Test func conflictingFieldsAreReported() async throws {
        let problems = try await TestDocument.problems("""
            { "version": 1,
              "clips": [ { "source": "clipA.mp4", "freezeFrame": "0.5s", "speed": 2 },
                         { "source": "clipA.mp4", "duration": "1s",
                           "speedRamp": { "duration": "1s", "keyframes": [ { "time": "0s", "value": 1 } ] } } ] }
            """)
        #expect(problems.map(\.description) == [
            "clips[0].speed: a clip with a freeze frame or a speed ramp cannot also have speed",
            "clips[1].duration: a speed ramp sets the clip's duration (speedRamp.duration); leave duration out",
        ])
    }
}
