import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }
private func r(_ start: MediaTime, _ end: MediaTime) -> TimeRange { F.range(start, end) }
private func r(_ start: Int64, _ end: Int64) -> TimeRange { F.range(s(start), s(end)) }

/// The time effects in the model: the exact integral of a speed ramp, the reverse mirror, the freeze frame,
/// and how editing cuts, refuses and round-trips them.
@Suite("Time effects (model)")
struct TimeEffectModelTests {
    let clip = F.video("a.mov", duration: s(20))

    /// 1× → 2× over 1 s (linear), 2× for 1 s, 2× → 1× over 1 s.
    static let ramp = SpeedRamp(duration: s(3), keyframes: [
        Keyframe(time: s(0), value: 1), Keyframe(time: s(1), value: 2), Keyframe(time: s(2), value: 2),
        Keyframe(time: s(3), value: 1),
    ])

    /// The integral of `ramp` at `e` seconds, written out by hand: `e + e²/2`, then `1.5 + 2(e − 1)`, then
    /// `3.5 + 2u − u²/2` with `u = e − 2`.
    static func expectedElapsed(_ e: Double) -> Double {
        if e <= 1 { return e + e * e / 2 }
        if e <= 2 { return 1.5 + 2 * (e - 1) }
        let u = e - 2
        return 3.5 + 2 * u - u * u / 2
    }

    @Test func rampIntegralIsExactAtEveryFrame() throws {
        #expect(Self.ramp.problem() == nil)
        #expect(Self.ramp.sourceDuration == s(5))
        for k in 0...90 {
            let offset = s(Int64(k), 30)
            let elapsed = try #require(Self.ramp.sourceOffset(at: offset))
            // Exact: k/30 + (k/30)²/2 = (60k + k²)/1800 in the first second, etc. — never rounded.
            #expect(!elapsed.hasBeenRounded, "k = \(k)")
            #expect(abs(elapsed.seconds - Self.expectedElapsed(Double(k) / 30)) < 1e-12, "k = \(k): \(elapsed)")
        }
        // Hand-checked exact values: e = 1/2 → 5/8; e = 1 → 3/2; e = 5/2 → 3.5 + 1 − 1/8 = 35/8.
        #expect(Self.ramp.sourceOffset(at: s(1, 2)) == s(5, 8))
        #expect(Self.ramp.sourceOffset(at: s(1)) == s(3, 2))
        #expect(Self.ramp.sourceOffset(at: s(5, 2)) == s(35, 8))
    }

    @Test(arguments: [
        (Easing.linear, MediaTime(value: 3, timescale: 2)), (.easeIn, MediaTime(value: 4, timescale: 3)),
        (.easeOut, MediaTime(value: 5, timescale: 3)), (.easeInOut, MediaTime(value: 3, timescale: 2)),
        (.hold, MediaTime(value: 1, timescale: 1)),
    ])
    func easedRampIntegrals(easing: Easing, expected: MediaTime) {
        // Rate 1 → 2 over one second: ∫ = 1 + Q(1) with Q(1) = ½, ⅓, ⅔, ½, 0.
        let ramp = SpeedRamp(duration: s(1), keyframes: [Keyframe(time: s(0), value: 1, easing: easing), Keyframe(time: s(1), value: 2)])
        #expect(ramp.sourceDuration == expected)
        // Ease-in-out by the middle: 1/2 + ∫₀^½ 2f² = 1/2 + 1/12.
        if easing == .easeInOut { #expect(ramp.sourceOffset(at: s(1, 2)) == s(7, 12)) }
    }

    @Test func rampRatesAreCheckedAndRoundedToEightThousandths() {
        #expect(SpeedRamp(duration: s(1), rate: 1.0 / 32).sourceDuration == s(1, 32))
        #expect(SpeedRamp(duration: s(1), rate: 0.03).problem()?.contains("outside 1/32 ... 32") == true)
        #expect(SpeedRamp(duration: s(1), rate: 33).problem() != nil)
        #expect(SpeedRamp(duration: s(1), keyframes: []).problem() == "it has no keyframes")
        #expect(SpeedRamp(duration: s(1), keyframes: [Keyframe(time: s(1, 2), value: 1)]).problem()?.contains("not at offset 0") == true)
        #expect(SpeedRamp(duration: s(1), rate: 1.1).sourceDuration == s(11, 10))
    }

    @Test func speedRampInsertReadsTheIntegral() throws {
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        try track.insertTimeRange(r(0, 2), of: clip, at: .zero)
        try track.insertSpeedRamp(Self.ramp, from: s(2), of: clip, at: .invalid)
        try track.insertTimeRange(r(7, 8), of: clip, at: .invalid)
        #expect(track.segments.count == 3)
        let ramped = track.segments[1]
        #expect(ramped.timeMapping.source == r(2, 7))
        #expect(ramped.timeMapping.target == r(2, 5))
        #expect(ramped.timeEffect == .speedRamp(Self.ramp))
        #expect(ramped.timeMapping.sourceTime(at: s(2), effect: ramped.timeEffect) == s(2))
        #expect(ramped.timeMapping.sourceTime(at: s(3), effect: ramped.timeEffect) == s(7, 2))
        #expect(track.segments[2].timeMapping.target == r(5, 6))
        // A ramp is never cut: removing across it throws and leaves the track as it was.
        let before = track
        #expect(throws: CompositionError.timeEffectCut(trackID: 1, operation: "removeTimeRange", time: s(3))) {
            try track.removeTimeRange(r(3, 4))
        }
        #expect(track == before)
        #expect(throws: CompositionError.self) { try track.scaleTimeRange(r(2, 5), toDuration: s(6)) }
        // Removing it whole is fine.
        try track.removeTimeRange(r(2, 5))
        #expect(track.segments.map(\.timeMapping) == [
            TimeMapping(source: r(0, 2), target: r(0, 2)), TimeMapping(source: r(7, 8), target: r(2, 3)),
        ])
    }

    @Test func reverseMirrorsTheSourceAndCutsExactly() throws {
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        try track.insertReversedTimeRange(r(2, 6), of: clip, at: .zero)
        let segment = track.segments[0]
        #expect(segment.timeEffect?.playsBackward == true)
        #expect(segment.timeMapping.sourceTime(at: s(0), effect: .reverse) == s(6))
        #expect(segment.timeMapping.sourceTime(at: s(1, 30), effect: .reverse) == s(179, 30))
        // Cutting [1, 2) out: the pieces read [5, 6) and [2, 4) of the source, still backwards.
        try track.removeTimeRange(r(1, 2))
        #expect(track.segments == [
            CompositionTrackSegment(sourceTrack: clip, timeMapping: TimeMapping(source: r(5, 6), target: r(0, 1)), timeEffect: .reverse),
            CompositionTrackSegment(sourceTrack: clip, timeMapping: TimeMapping(source: r(2, 4), target: r(1, 3)), timeEffect: .reverse),
        ])
        // A reversed range right after the same range played forward does not merge into it.
        var pair = try CompositionTrack(trackID: 1, mediaType: .video)
        try pair.insertTimeRange(r(0, 2), of: clip, at: .zero)
        try pair.insertReversedTimeRange(r(2, 4), of: clip, at: .invalid)
        #expect(pair.segments.count == 2)
        // Doubling its speed keeps it reversed.
        try pair.scaleTimeRange(r(2, 4), toDuration: s(1))
        #expect(pair.segments[1].timeMapping == TimeMapping(source: r(2, 4), target: r(2, 3)))
        #expect(pair.segments[1].timeEffect == .reverse)
    }

    @Test func reverseLongerThanTheLimitIsRefused() throws {
        let long = F.video("long.mov", duration: s(700))
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        #expect(throws: CompositionError.self) { try track.insertReversedTimeRange(r(0, 601), of: long, at: .zero) }
        do {
            try track.insertReversedTimeRange(r(0, 601), of: long, at: .zero)
        } catch let CompositionError.invalidTimeEffect(trackID, _, reason) {
            #expect(trackID == 1)
            #expect(reason.contains("600"))
        }
        try track.insertReversedTimeRange(r(0, 600), of: long, at: .zero)
        #expect(track.segments.count == 1)
    }

    @Test func freezeHoldsOneSourceTimeBeyondTheSpeedLimit() throws {
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        try track.insertTimeRange(r(0, 1), of: clip, at: .zero)
        // Hold source frame 15 (0.5 s) for 40 s: 1200 times slower than any plain segment may play.
        try track.insertFreezeFrame(at: s(1, 2), of: clip, duration: s(40), at: .invalid)
        try track.insertTimeRange(r(1, 2), of: clip, at: .invalid)
        #expect(track.timeRange == r(0, 42))
        let frozen = track.segments[1]
        #expect(frozen.timeEffect == .freezeFrame(.silence))
        #expect(frozen.timeMapping.target == r(1, 41))
        for time in [s(1), s(20), s(2459, 60)] {
            #expect(frozen.timeMapping.sourceTime(at: time, effect: frozen.timeEffect) == s(1, 2))
        }
        // Cutting a freeze keeps the held frame; the two pieces that meet again merge.
        try track.removeTimeRange(r(2, 40))
        #expect(track.segments.count == 3)
        #expect(track.segments[1].timeMapping.target == r(1, 3))
        #expect(track.segments[1].timeMapping.source.start == s(1, 2))
        #expect(throws: CompositionError.self) { try track.insertFreezeFrame(at: s(21), of: clip, duration: s(1), at: .zero) }
    }

    @Test func segmentsWithEffectsRoundTripThroughJSON() throws {
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        try track.insertReversedTimeRange(r(0, 1), of: clip, at: .zero)
        try track.insertFreezeFrame(at: s(1), of: clip, duration: s(2), at: .invalid)
        try track.insertSpeedRamp(Self.ramp, from: s(2), of: clip, at: .invalid)
        try track.insertFreezeFrame(at: s(2), of: clip, duration: s(1), at: .invalid, sound: .roomTone)
        let data = try JSONEncoder().encode(track)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""kind":"reverse""#))
        #expect(text.contains(#""kind":"freezeFrame"}"#))  // silence: no "sound" written
        #expect(text.contains(#""sound":"roomTone""#))
        #expect(track.segments[3].timeEffect == .freezeFrame(.roomTone))
        #expect(text.contains(#""kind":"speedRamp""#))
        #expect(try JSONDecoder().decode(CompositionTrack.self, from: data) == track)
        // A decoded ramp whose source range disagrees with its integral is refused.
        var segments = track.segments
        segments[2].timeMapping.source.duration = s(4)
        do {
            _ = try CompositionTrack(trackID: 1, mediaType: .video, segments: segments)
            Issue.record("a ramp reading 5 s over a 4 s source range was accepted")
        } catch let CompositionError.invalidTimeEffect(trackID, index, reason) {
            #expect(trackID == 1 && index == 2)
            #expect(reason.contains("reads 5.000 s (5/1) of source") && reason.contains("lasts 4.000 s (4/1)"), "\(reason)")
        }
    }
}
