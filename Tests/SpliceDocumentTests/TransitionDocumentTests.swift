import AudioMix
import Composition
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing
import VideoComposition

/// Transitions of the catalogue in documents: the short form's `transition.type` takes every `xfade` name and an
/// `audioCurve`, and the expanded (full) form carries them as the instruction's `transition` and the mix's
/// `crossfades`, loading back to the same models (clipA and clipB: 640x360, 4 s, with sound).
@Suite("Documents: transitions")
struct TransitionDocumentTests {
    @Test func shortFormWipeWithEqualPowerSound() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "clips": [
                { "source": "clipA.mp4", "transition": { "type": "wipeleft", "duration": "1s", "easing": "easeIn", "audioCurve": "equalPower" } },
                { "source": "clipB.mp4" }
              ] }
            """)
        let video = try #require(loaded.videoComposition)
        #expect(video.instructions.map(\.timeRange) == [.ms(0, 3000), .ms(3000, 4000), .ms(4000, 7000)])
        let transition = try #require(video.instructions[1].transition)
        #expect(transition == VideoTransition(style: .wipeLeft, from: 1, to: 2, easing: .easeIn))
        #expect(transition.progress(at: .ms(3500), in: video.instructions[1].timeRange) == 0.25)
        #expect(video.validate(for: loaded.composition).isEmpty)

        let mix = try #require(loaded.audioMix)
        #expect(mix.crossfades == [AudioCrossfade(from: 3, to: 4, timeRange: .ms(3000, 4000), curve: .equalPower)])
        #expect(mix.volume(forTrackID: 3, at: .ms(3500)) == 1, "the crossfade, not a volume ramp, shapes the sound")
        #expect(mix.volume(forTrackID: 4, at: .ms(3500)) == 1)
        #expect(mix.validate(for: CompositionSummary(loaded.composition)).isEmpty)
    }

    @Test func expandedFormKeepsTransitionsAndCrossfades() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let short = try scratch.write("short.json", """
            { "version": 1, "renderSize": [320, 180],
              "clips": [ { "source": "clipA.mp4", "duration": "2s", "transition": { "type": "circleopen", "duration": "0.5s", "audioCurve": "exp" } },
                         { "source": "clipB.mp4", "duration": "2s", "transition": { "type": "crossDissolve", "duration": "0.5s" } },
                         { "source": "clipA.mp4", "duration": "1s" } ] }
            """)
        let loaded = try await CompositionDocument.load(from: short)
        let json = try loaded.expandedJSON()
        #expect(json.contains(#""style" : "circleopen""#) || json.contains(#""style": "circleopen""#))
        let full = try scratch.write("full.json", json)
        let reloaded = try await CompositionDocument.load(from: full)
        #expect(reloaded.form == .full)
        #expect(reloaded.videoComposition == loaded.videoComposition)
        #expect(reloaded.audioMix == loaded.audioMix)
        #expect(reloaded.audioMix?.crossfades.map(\.curve) == [.exp])
        #expect(reloaded.videoComposition?.instructions.compactMap(\.transition?.style) == [.circleOpen])
    }

    @Test func unknownTransitionTypeIsReportedAtItsPath() async throws {
        await #expect(throws: (any Error).self) {
            _ = try await TestDocument.load("""
                { "version": 1, "clips": [ { "source": "clipA.mp4", "transition": { "type": "spin", "duration": "1s" } }, { "source": "clipB.mp4" } ] }
                """)
        }
    }
}
