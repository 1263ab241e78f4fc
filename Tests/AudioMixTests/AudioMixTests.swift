import Foundation
import Testing
import Composition
@testable import AudioMix

private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }
private func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange { TimeRange(start: start, end: end) }

@Suite("AudioMixInputParameters: volume")
struct AudioMixVolumeTests {
    /// Apple's documented example: volume 1.0 at 0, then a ramp 0.5 → 0.2 over [4 s, 9 s).
    func applesExample() -> AudioMixInputParameters {
        var parameters = AudioMixInputParameters(trackID: 2)
        parameters.setVolume(1.0, at: .zero)
        parameters.setVolumeRamp(fromStartVolume: 0.5, toEndVolume: 0.2, timeRange: TimeRange(start: s(4), duration: s(5)))
        return parameters
    }

    @Test func applesVolumeExample() {
        let parameters = applesExample()
        #expect(parameters.volume(at: .zero) == 1.0)
        #expect(parameters.volume(at: s(2)) == 1.0)
        #expect(parameters.volume(at: s(47_999, 12000)) == 1.0)  // just before 4 s: the ramp's 0.5 does not apply yet
        #expect(parameters.volume(at: s(4)) == 0.5)
        let midway = parameters.volume(at: s(13, 2))
        #expect(abs(midway - 0.35) < 1e-15, "volume at 6.5 s = \(midway)")
        #expect(parameters.volume(at: s(9)) == 0.2)
        #expect(parameters.volume(at: s(20)) == 0.2)
    }

    @Test func defaultsAndTheMix() {
        let untouched = AudioMixInputParameters(trackID: 3)
        #expect(untouched.volume(at: s(7)) == 1.0)
        #expect(untouched.audioTimePitchAlgorithm == .spectral)
        let mix = MutableAudioMix(inputParameters: [applesExample()])
        #expect(mix.inputParameters(forTrackID: 2) == applesExample())
        #expect(mix.inputParameters(forTrackID: 3) == nil)
        #expect(mix.volume(forTrackID: 2, at: s(9)) == 0.2)
        #expect(mix.volume(forTrackID: 3, at: s(9)) == 1.0)  // a track without parameters plays at unity
    }

    @Test func volumeSegmentsAreTheExactCurve() {
        let pieces = applesExample().volumeSegments(in: range(.zero, s(10)))
        #expect(pieces.map(\.timeRange) == [range(.zero, s(4)), range(s(4), s(9)), range(s(9), s(10))])
        #expect(pieces.map(\.startValue) == [1.0, 0.5, 0.2])
        #expect(pieces.map(\.endValue) == [1.0, 0.2, 0.2])
        #expect(pieces.map(\.easing) == [.hold, .linear, .hold])
        #expect(applesExample().isVolumeConstant(in: range(.zero, s(4))))
        #expect(!applesExample().isVolumeConstant(in: range(.zero, s(5))))
    }

    @Test func easedFadeOutWithKeyframes() {
        var parameters = AudioMixInputParameters(trackID: 1, audioTimePitchAlgorithm: .varispeed)
        parameters.setVolume(keyframes: [Keyframe(time: s(8), value: 1, easing: .easeIn), Keyframe(time: s(10), value: 0)])
        #expect(parameters.volume(at: s(7)) == 1)
        #expect(parameters.volume(at: s(9)) == 0.75)  // 1 − (1/2)²
        #expect(parameters.volume(at: s(10)) == 0)
        #expect(parameters.audioTimePitchAlgorithm == .varispeed)
    }

    @Test func jsonRoundTrips() throws {
        var parameters = applesExample()
        parameters.audioTimePitchAlgorithm = .timeDomain
        let mix = MutableAudioMix(inputParameters: [parameters, AudioMixInputParameters(trackID: 5)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(mix)
        #expect(try JSONDecoder().decode(MutableAudioMix.self, from: data) == mix)
        #expect(String(decoding: try encoder.encode(AudioMixInputParameters(trackID: 5)), as: UTF8.self)
            == #"{"audioTimePitchAlgorithm":"spectral","trackID":5}"#)
        let handWritten = #"{"inputParameters": [{"trackID": 2, "volume": [{"time": "4", "value": 0.5}]}]}"#
        let decoded = try JSONDecoder().decode(MutableAudioMix.self, from: Data(handWritten.utf8))
        #expect(decoded.volume(forTrackID: 2, at: s(3)) == 1)
        #expect(decoded.volume(forTrackID: 2, at: s(4)) == 0.5)
        #expect(decoded.inputParameters[0].audioTimePitchAlgorithm == .spectral)
    }
}

@Suite("MutableAudioMix.validate(for:)")
struct AudioMixValidationTests {
    let summary = CompositionSummary(tracks: [
        CompositionSummary.Track(trackID: 1, mediaType: .video, timeRange: range(.zero, s(4)), segments: [.init(target: range(.zero, s(4)))]),
        CompositionSummary.Track(trackID: 2, mediaType: .audio, timeRange: range(.zero, s(4)), segments: [.init(target: range(.zero, s(4)))]),
        CompositionSummary.Track(trackID: 3, mediaType: .audio, timeRange: range(.zero, s(4)), segments: [.init(target: range(.zero, s(4)))]),
    ])

    func issues(_ change: (inout AudioMixInputParameters) -> Void, trackID: Int32 = 2) -> [ValidationIssue] {
        var parameters = AudioMixInputParameters(trackID: trackID)
        change(&parameters)
        return MutableAudioMix(inputParameters: [parameters]).validate(for: summary)
    }

    @Test func aValidMix() throws {
        var parameters = AudioMixInputParameters(trackID: 2)
        parameters.setVolume(0, at: .zero)
        parameters.setVolumeRamp(fromStartVolume: 0, toEndVolume: 2, timeRange: range(s(1), s(2)))
        let mix = MutableAudioMix(inputParameters: [parameters, AudioMixInputParameters(trackID: 3)])
        #expect(mix.validate(for: summary) == [])
        #expect(try mix.validated(for: summary) == mix)
    }

    @Test func unknownTrack() {
        #expect(issues({ _ in }, trackID: 7) == [ValidationIssue(
            kind: .unknownTrack, trackID: 7, message: "input parameters 0 for track 7: the composition has no track 7")])
    }

    @Test func notAnAudioTrack() {
        #expect(issues({ _ in }, trackID: 1) == [ValidationIssue(
            kind: .wrongMediaType, trackID: 1,
            message: "input parameters 0 for track 1: track 1 has media type video, not audio")])
    }

    @Test func invalidTimes() {
        #expect(issues { $0.setVolume(0.5, at: .indefinite) } == [ValidationIssue(
            kind: .invalidKeyTime, trackID: 2,
            message: "input parameters 0 for track 2: volume set at indefinite, which is not a numeric time")])
        #expect(issues { $0.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: TimeRange(start: s(1), duration: .positiveInfinity)) }
            == [ValidationIssue(
                kind: .invalidRampTimeRange, trackID: 2, time: s(1),
                message: "input parameters 0 for track 2: volume ramp has time range (start 1.000 s (1/1), duration +∞): "
                    + "a ramp needs a numeric start and a positive numeric duration")])
        #expect(issues {
            $0.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: range(s(1), s(3)))
            $0.setVolumeRamp(fromStartVolume: 0, toEndVolume: 1, timeRange: range(s(2), s(4)))
        }.map(\.kind) == [.overlappingRamps])
    }

    @Test func badVolumes() {
        #expect(issues { $0.setVolumeRamp(fromStartVolume: 1, toEndVolume: -1, timeRange: range(s(1), s(3))) } == [ValidationIssue(
            kind: .negativeVolume, trackID: 2, time: s(1),
            message: "input parameters 0 for track 2: volume ramp over [1.000 s (1/1), 3.000 s (3/1)): end value is -1.0, a negative gain")])
        #expect(issues { $0.setVolume(.nan, at: .zero) } == [ValidationIssue(
            kind: .nonFiniteValue, trackID: 2, time: .zero,
            message: "input parameters 0 for track 2: volume set at 0.000 s (0/1): value is nan, not a finite gain")])
    }

    @Test func negativeVolumeSetAtATime() {
        #expect(issues { $0.setVolume(-0.5, at: s(1)) } == [ValidationIssue(
            kind: .negativeVolume, trackID: 2, time: s(1),
            message: "input parameters 0 for track 2: volume set at 1.000 s (1/1): value is -0.5, a negative gain")])
    }

    @Test func everyProblemOfAMixIsReported() {
        var first = AudioMixInputParameters(trackID: 2)
        first.setVolume(-2, at: s(1))
        var second = AudioMixInputParameters(trackID: 2)
        second.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: range(s(3), s(2)))
        let mix = MutableAudioMix(inputParameters: [first, second, AudioMixInputParameters(trackID: 9)])
        let issues = mix.validate(for: summary)
        #expect(issues.map(\.kind) == [.negativeVolume, .duplicateTrack, .invalidRampTimeRange, .unknownTrack])
        #expect(issues[1].message == "input parameters 1 for track 2: the mix already has input parameters for track 2")
        #expect(throws: AudioMixError.invalid(issues)) { try mix.validated(for: summary) }
        #expect(AudioMixError.invalid([issues[3]]).description
            == "audio mix is invalid (1 problem):\n- unknownTrack: input parameters 2 for track 9: the composition has no track 9")
    }
}

/// The audio half of a transition: crossfades between two audio tracks, validated and encoded.
@Suite("Audio crossfades: models")
struct AudioCrossfadeModelTests {
    let range = TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 2))

    @Test func aCrossfadeToAVideoTrackIsTheWrongMediaType() {
        let summary = CompositionSummary(tracks: [
            .init(trackID: 1, mediaType: .video, timeRange: range, segments: [], isEnabled: true, naturalSize: Size(width: 64, height: 64)),
            .init(trackID: 3, mediaType: .audio, timeRange: range, segments: [], isEnabled: true, naturalSize: .zero),
        ])
        let mix = MutableAudioMix(inputParameters: [], crossfades: [AudioCrossfade(from: 3, to: 1, timeRange: range)])
        #expect(mix.validate(for: summary).map(\.kind) == [.wrongMediaType])
    }

    @Test func crossfadesRoundTripThroughCodable() throws {
        let mix = MutableAudioMix(inputParameters: [], crossfades: [AudioCrossfade(from: 3, to: 4, timeRange: range, curve: .exp, fadeOutCurve: .log)])
        #expect(try JSONDecoder().decode(MutableAudioMix.self, from: JSONEncoder().encode(mix)) == mix)
    }
}
