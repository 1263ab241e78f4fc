import Foundation
import Testing
@testable import Composition

/// Shorthand for whole and fractional seconds in tests.
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }
private func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange { TimeRange(start: start, end: end) }

@Suite("Keyframes: evaluation")
struct KeyframeEvaluationTests {
    @Test func rampIsLinearFromItsStartAndItsEndValueHoldsFromItsEnd() {
        // Opacity ramp 1 → 0 over [1 s, 3 s).
        var opacity = Keyframes<Double>()
        opacity.setRamp(from: 1, to: 0, timeRange: range(s(1), s(3)))
        #expect(opacity.value(at: s(1, 2)) == nil)  // nothing in force: the default applies
        #expect(opacity.value(at: s(1, 2), default: 1.0) == 1.0)
        #expect(opacity.value(at: s(1)) == 1.0)
        #expect(opacity.value(at: s(3, 2)) == 0.75)
        #expect(opacity.value(at: s(2)) == 0.5)
        #expect(opacity.value(at: s(5, 2)) == 0.25)
        #expect(opacity.value(at: s(3)) == 0.0)
        #expect(opacity.value(at: s(3600)) == 0.0)
        #expect(opacity.value(at: .positiveInfinity) == 0.0)
        #expect(opacity.value(at: .negativeInfinity) == nil)
        #expect(opacity.value(at: .invalid) == nil)
    }

    @Test func applesVolumeExample() {
        // AVMutableAudioMixInputParameters' documented example: 1.0 at 0, ramp 0.5 → 0.2 over [4 s, 9 s).
        var volume = Keyframes<Double>()
        volume.setValue(1.0, at: .zero)
        volume.setRamp(from: 0.5, to: 0.2, timeRange: TimeRange(start: s(4), duration: s(5)))
        #expect(volume.value(at: .zero) == 1.0)
        #expect(volume.value(at: s(3999, 1000)) == 1.0)  // the ramp's start value applies only from 4 s
        #expect(volume.value(at: s(4)) == 0.5)
        let midway = volume.value(at: s(13, 2)) ?? .nan  // 6.5 s: half-way, 0.35 up to one rounding of 0.5 + (−0.3)·0.5
        #expect(abs(midway - 0.35) < 1e-15, "volume at 6.5 s = \(midway)")
        #expect(volume.value(at: s(9)) == 0.2)
        #expect(volume.value(at: s(60)) == 0.2)

        // Without the value at 0, the default (1.0 for volume) holds before 4 s.
        var rampOnly = Keyframes<Double>()
        rampOnly.setRamp(from: 0.5, to: 0.2, timeRange: TimeRange(start: s(4), duration: s(5)))
        #expect(rampOnly.value(at: s(2), default: 1.0) == 1.0)
        #expect(rampOnly.value(at: s(4), default: 1.0) == 0.5)
    }

    @Test func aValueSetInsideOrAfterARampWinsFromItsTime() {
        var keys = Keyframes<Double>()
        keys.setRamp(from: 0, to: 1, timeRange: range(.zero, s(4)))
        keys.setValue(0.125, at: s(2))
        #expect(keys.value(at: s(1)) == 0.25)
        #expect(keys.value(at: s(2)) == 0.125)
        #expect(keys.value(at: s(3)) == 0.125)
        #expect(keys.value(at: s(9)) == 0.125)

        var later = Keyframes<Double>()
        later.setRamp(from: 0, to: 1, timeRange: range(.zero, s(4)))
        later.setValue(0.5, at: s(6))
        #expect(later.value(at: s(5)) == 1.0)
        #expect(later.value(at: s(6)) == 0.5)
    }

    @Test func settingAtTheSameTimeReplaces() {
        var keys = Keyframes<Double>()
        keys.setValue(0.5, at: s(1))
        keys.setValue(0.25, at: s(30, 30))  // same instant, other timescale
        #expect(keys.entries.count == 1)
        #expect(keys.value(at: s(2)) == 0.25)
        keys.setRamp(from: 1, to: 0, timeRange: range(s(1), s(2)))
        #expect(keys.entries.count == 1)
        #expect(keys.value(at: s(3, 2)) == 0.5)
    }

    @Test func entriesAreKeptInTimeOrderWhateverTheCallOrder() {
        var keys = Keyframes<Double>()
        keys.setValue(3, at: s(3))
        keys.setValue(1, at: s(1))
        keys.setValue(2, at: s(2))
        #expect(keys.entries.map(\.start) == [s(1), s(2), s(3)])
        #expect(keys.value(at: s(5, 2)) == 2)
    }

    @Test(arguments: [
        (Easing.linear, 0.25, 0.75), (.easeIn, 0.0625, 0.5625), (.easeOut, 0.4375, 0.9375),
        (.easeInOut, 0.125, 0.875), (.hold, 0.0, 0.0),
    ])
    func easingCurves(easing: Easing, atQuarter: Double, atThreeQuarters: Double) {
        var keys = Keyframes<Double>()
        keys.setRamp(from: 0, to: 1, timeRange: range(.zero, s(4)), easing: easing)
        #expect(keys.value(at: .zero) == 0)
        #expect(keys.value(at: s(1)) == atQuarter)
        #expect(keys.value(at: s(3)) == atThreeQuarters)
        #expect(keys.value(at: s(4)) == 1)
    }

    @Test func easeInOutIsHalfWayAtTheMiddle() {
        #expect(Easing.easeInOut.progress(0.5) == 0.5)
        #expect(Easing.allCases.allSatisfy { $0.progress(0) == 0 })
    }

    @Test func fractionIsExactFarFromZero() {
        // 10^12 s into a timeline, a 3-tick ramp at 30000 Hz: a Double-seconds computation has ~0.1 ms resolution
        // there and could not tell the ticks apart; the exact fraction is 1/3.
        let start = MediaTime(value: 30_000_000_000_000_000, timescale: 30000)
        var keys = Keyframes<Double>()
        keys.setRamp(from: 0, to: 3, timeRange: TimeRange(start: start, duration: s(3, 30000)))
        #expect(keys.value(at: start + s(1, 30000)) == 1.0)
        #expect(keys.value(at: start + s(2, 30000)) == 2.0)
        #expect(KeyframeRamp<Double>.fraction(of: start + s(1, 30000), in: TimeRange(start: start, duration: s(3, 30000))) == 1.0 / 3.0)
    }

    @Test func keyframesMakeRampsThroughEveryKey() {
        var keys = Keyframes<Double>()
        keys.setKeyframes([
            Keyframe(time: .zero, value: 0, easing: .easeIn),
            Keyframe(time: s(2), value: 1),
            Keyframe(time: s(4), value: 0, easing: .hold),
        ])
        #expect(keys.entries.count == 2)
        #expect(keys.value(at: s(1)) == 0.25)  // easeIn: (1/2)² of the way
        #expect(keys.value(at: s(2)) == 1)
        #expect(keys.value(at: s(3)) == 0.5)
        #expect(keys.value(at: s(4)) == 0)
        #expect(keys.value(at: s(100)) == 0)
    }

    @Test func keyframesAtTheSameTimeMakeAJump() {
        var keys = Keyframes<Double>()
        keys.setKeyframes([Keyframe(time: .zero, value: 0), Keyframe(time: s(2), value: 1), Keyframe(time: s(2), value: 0.5)])
        #expect(keys.value(at: s(1)) == 0.5)
        #expect(keys.value(at: s(2)) == 0.5)
        #expect(keys.value(at: s(3)) == 0.5)
        var single = Keyframes<Double>()
        single.setKeyframes([Keyframe(time: s(1), value: 0.3)])
        #expect(single.entries == [.value(0.3, at: s(1))])
    }

    @Test func unusableEntriesAreKeptButNotEvaluated() {
        var keys = Keyframes<Double>()
        keys.setValue(0.5, at: s(1))
        keys.setValue(0.9, at: .invalid)
        keys.setRamp(from: 0, to: 1, timeRange: TimeRange(start: s(2), duration: s(-1)))
        #expect(keys.entries.count == 3)
        #expect(keys.value(at: s(3)) == 0.5)
    }

    @Test func zeroDurationRampJumpsToItsEndValue() {
        var keys = Keyframes<Double>()
        keys.setRamp(from: 0, to: 1, timeRange: TimeRange(start: s(2), duration: .zero))
        #expect(keys.value(at: s(1)) == nil)
        #expect(keys.value(at: s(2)) == 1)
    }

    @Test func pointsInterpolateComponentwise() {
        var position = Keyframes<Point>()
        position.setRamp(from: Point(x: 0, y: 100), to: Point(x: 200, y: 0), timeRange: range(.zero, s(2)))
        #expect(position.value(at: s(1, 2)) == Point(x: 50, y: 75))
    }
}

@Suite("Keyframes: segments for the renderer")
struct KeyframeSegmentTests {
    @Test func rampIsCutIntoConstantAndRampingPieces() {
        var opacity = Keyframes<Double>()
        opacity.setRamp(from: 1, to: 0, timeRange: range(s(1), s(3)))
        let pieces = opacity.segments(in: range(.zero, s(5)), default: 1)
        #expect(pieces.map(\.timeRange) == [range(.zero, s(1)), range(s(1), s(3)), range(s(3), s(5))])
        #expect(pieces.map(\.startValue) == [1, 1, 0])
        #expect(pieces.map(\.endValue) == [1, 0, 0])
        #expect(pieces.map(\.isConstant) == [true, false, true])
        #expect(pieces[1].easing == .linear)
        #expect(pieces[0].easing == .hold)

        let middle = opacity.segments(in: range(s(2), s(4)), default: 1)
        #expect(middle.map(\.timeRange) == [range(s(2), s(3)), range(s(3), s(4))])
        #expect(middle[0].startValue == 0.5)
        #expect(middle[0].endValue == 0)
        #expect(middle[0].ramp?.timeRange == range(s(1), s(3)))
    }

    @Test func equalNeighboursMergeAndFlatRampsAreConstant() {
        var volume = Keyframes<Double>()
        volume.setValue(1, at: s(2))
        volume.setRamp(from: 1, to: 1, timeRange: range(s(3), s(4)))
        volume.setRamp(from: 1, to: 0.5, timeRange: range(s(5), s(6)), easing: .hold)
        let pieces = volume.segments(in: range(.zero, s(8)), default: 1)
        #expect(pieces.map(\.timeRange) == [range(.zero, s(6)), range(s(6), s(8))])
        #expect(pieces.map(\.startValue) == [1, 0.5])
        #expect(volume.isConstant(in: range(.zero, s(6)), default: 1))
        #expect(!volume.isConstant(in: range(.zero, s(7)), default: 1))
        #expect(volume.isConstant(in: range(s(6), s(100)), default: 1))
    }

    @Test func rampCutShortByALaterValue() {
        var keys = Keyframes<Double>()
        keys.setRamp(from: 0, to: 1, timeRange: range(.zero, s(4)))
        keys.setValue(0.75, at: s(2))
        let pieces = keys.segments(in: range(.zero, s(3)), default: 0)
        #expect(pieces.map(\.timeRange) == [range(.zero, s(2)), range(s(2), s(3))])
        #expect(pieces[0].endValue == 0.5)
        #expect(pieces[1].isConstant && pieces[1].startValue == 0.75)
    }

    @Test func segmentsReachToInfinity() {
        var keys = Keyframes<Double>()
        keys.setValue(0.5, at: s(1))
        let pieces = keys.segments(in: TimeRange(start: .zero, duration: .positiveInfinity), default: 1)
        #expect(pieces.count == 2)
        #expect(pieces[1].timeRange.start == s(1))
        #expect(pieces[1].timeRange.duration.isPositiveInfinity)
        #expect(keys.segments(in: .invalid, default: 1).isEmpty)
        #expect(keys.segments(in: TimeRange(start: s(1), duration: .zero), default: 1).isEmpty)
    }
}

@Suite("Keyframes: validation and JSON")
struct KeyframeValidationTests {
    private let location = ValidationIssue.Location(parameter: "opacity", owner: "instruction 0, track 1", instructionIndex: 0, trackID: 1)

    private func unitRange(_ value: Double) -> (kind: ValidationIssue.Kind, reason: String)? {
        (0...1).contains(value) ? nil : (.opacityOutOfRange, "is \(value), outside 0...1")
    }

    @Test func wellFormedEntriesHaveNoIssue() {
        var keys = Keyframes<Double>()
        keys.setRamp(from: 1, to: 0, timeRange: range(s(1), s(3)))
        keys.setRamp(from: 0, to: 1, timeRange: range(s(3), s(4)))
        keys.setValue(0.5, at: s(2))
        #expect(keys.validationIssues(at: location, checkValue: unitRange).isEmpty)
    }

    @Test func overlappingRampsAreReported() {
        var keys = Keyframes<Double>()
        keys.setRamp(from: 1, to: 0, timeRange: range(s(1), s(3)))
        keys.setRamp(from: 0, to: 1, timeRange: range(s(2), s(4)))
        let issues = keys.validationIssues(at: location, checkValue: unitRange)
        #expect(issues == [ValidationIssue(
            kind: .overlappingRamps, instructionIndex: 0, trackID: 1, time: s(2),
            message: "instruction 0, track 1: opacity ramp over [2.000 s (2/1), 4.000 s (4/1)) overlaps the opacity ramp "
                + "over [1.000 s (1/1), 3.000 s (3/1))")])
    }

    @Test func badTimesRangesAndValuesAreEachReported() {
        var keys = Keyframes<Double>()
        keys.setValue(0.5, at: .invalid)
        keys.setRamp(from: 1, to: 0, timeRange: TimeRange(start: s(2), duration: .zero))
        keys.setKeyframes([Keyframe(time: s(6), value: 0), Keyframe(time: s(5), value: 1.5)])
        let issues = keys.validationIssues(at: location, checkValue: unitRange)
        #expect(issues.map(\.kind) == [.invalidRampTimeRange, .invalidRampTimeRange, .opacityOutOfRange, .invalidKeyTime])
        #expect(issues[0].time == s(2))
        #expect(issues[1].message.contains("keyframes out of time order"))
        #expect(issues[2].message == "instruction 0, track 1: opacity ramp over invalid range (start 6.000 s (6/1), duration -1.000 s (-1/1)): end value is 1.5, outside 0...1")
        #expect(issues[3].time == nil)
    }

    @Test func jsonRoundTripsAndIsReadable() throws {
        var keys = Keyframes<Double>()
        keys.setValue(0.1, at: s(2))
        keys.setRamp(from: 1, to: 1.0 / 3.0, timeRange: TimeRange(start: s(1001, 30000), duration: s(1)), easing: .easeOut)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(keys)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text == #"[{"easing":"easeOut","endValue":0.3333333333333333,"startValue":1,"timeRange":{"duration":"1\/1","start":"1001\/30000"}},{"time":"2\/1","value":0.1}]"#)
        let decoded = try JSONDecoder().decode(Keyframes<Double>.self, from: data)
        #expect(decoded == keys)
        let handWritten = #"[{"time": "3", "value": 0}, {"timeRange": {"start": "0", "duration": "2"}, "startValue": 0, "endValue": 1}]"#
        let parsed = try JSONDecoder().decode(Keyframes<Double>.self, from: Data(handWritten.utf8))
        #expect(parsed.entries.map(\.start) == [.zero, s(3)])
        #expect(parsed.value(at: s(1)) == 0.5)
    }
}
