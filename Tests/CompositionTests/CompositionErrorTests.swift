import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }
private func r(_ start: MediaTime, _ end: MediaTime) -> TimeRange { F.range(start, end) }
private func r(_ start: Int64, _ end: Int64) -> TimeRange { F.range(s(start), s(end)) }

/// Every refusal is a specific ``CompositionError`` naming the track, the argument and the times, and leaves the
/// track unchanged.
@Suite("Composition errors")
struct CompositionErrorTests {
    let clipA = F.video("a.mov", duration: s(10))
    let sound = F.audio("a.mov", duration: s(10))

    /// A video track holding `[0, 4)` of clip A.
    private func track() throws -> CompositionTrack {
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        return track
    }

    /// Expects `body` to throw exactly `expected` and to leave the track as it was.
    private func expectRefusal(
        _ expected: CompositionError, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout CompositionTrack) throws -> Void
    ) throws {
        var edited = try track()
        let before = edited
        #expect(throws: expected, sourceLocation: sourceLocation) { try body(&edited) }
        #expect(edited == before, "the track changed", sourceLocation: sourceLocation)
    }

    @Test func insertArgumentErrors() throws {
        try expectRefusal(.invalidTime(trackID: 1, parameter: "timeRange.start", time: .invalid)) {
            try $0.insertTimeRange(TimeRange(start: .invalid, duration: s(1)), of: clipA, at: .zero)
        }
        try expectRefusal(.invalidTime(trackID: 1, parameter: "timeRange.start", time: .indefinite)) {
            try $0.insertTimeRange(TimeRange(start: .indefinite, duration: s(1)), of: clipA, at: .zero)
        }
        try expectRefusal(.nonPositiveDuration(trackID: 1, parameter: "timeRange.duration", duration: .zero)) {
            try $0.insertTimeRange(r(2, 2), of: clipA, at: .zero)
        }
        try expectRefusal(.nonPositiveDuration(trackID: 1, parameter: "timeRange.duration", duration: s(-1))) {
            try $0.insertTimeRange(TimeRange(start: s(2), duration: s(-1)), of: clipA, at: .zero)
        }
        try expectRefusal(.invalidTime(trackID: 1, parameter: "timeRange.duration", time: .invalid)) {
            try $0.insertTimeRange(TimeRange(start: s(2), duration: .invalid), of: clipA, at: .zero)
        }
        try expectRefusal(.invalidTime(trackID: 1, parameter: "startTime", time: .indefinite)) {
            try $0.insertTimeRange(r(0, 1), of: clipA, at: .indefinite)
        }
        try expectRefusal(.invalidTime(trackID: 1, parameter: "startTime", time: .positiveInfinity)) {
            try $0.insertTimeRange(r(0, 1), of: clipA, at: .positiveInfinity)
        }
        try expectRefusal(.negativeTime(trackID: 1, parameter: "startTime", time: s(-1, 30))) {
            try $0.insertTimeRange(r(0, 1), of: clipA, at: s(-1, 30))
        }
    }

    @Test func sourceRangeOutsideTheSourceTrackIsAnErrorNotAClamp() throws {
        let url = URL(fileURLWithPath: "/media/a.mov")
        try expectRefusal(.sourceRangeOutsideSourceTrack(
            trackID: 1, sourceURL: url, sourceTrackID: 1, range: r(8, 12), sourceTimeRange: r(0, 10))) {
            try $0.insertTimeRange(r(8, 12), of: clipA, at: .zero)
        }
        try expectRefusal(.sourceRangeOutsideSourceTrack(
            trackID: 1, sourceURL: url, sourceTrackID: 1, range: r(-1, 1), sourceTimeRange: r(0, 10))) {
            try $0.insertTimeRange(r(-1, 1), of: clipA, at: .zero)
        }
        // One 1/600 s tick too long.
        try expectRefusal(.sourceRangeOutsideSourceTrack(
            trackID: 1, sourceURL: url, sourceTrackID: 1, range: r(s(0), s(6001, 600)), sourceTimeRange: r(0, 10))) {
            try $0.insertTimeRange(r(s(0), s(6001, 600)), of: clipA, at: .zero)
        }
    }

    @Test func mediaTypeMismatch() throws {
        try expectRefusal(.mediaTypeMismatch(trackID: 1, trackMediaType: .video, sourceTrackID: 2, sourceMediaType: .audio)) {
            try $0.insertTimeRange(r(0, 1), of: sound, at: .zero)
        }
        var audio = try CompositionTrack(trackID: 7, mediaType: .audio)
        #expect(throws: CompositionError.mediaTypeMismatch(
            trackID: 7, trackMediaType: .audio, sourceTrackID: 1, sourceMediaType: .video)) {
            try audio.insertTimeRange(r(0, 1), of: clipA, at: .zero)
        }
        #expect(audio.segments.isEmpty)
    }

    @Test func removeAndEmptyArgumentErrors() throws {
        try expectRefusal(.invalidTime(trackID: 1, parameter: "timeRange.start", time: .invalid)) {
            try $0.removeTimeRange(.invalid)
        }
        try expectRefusal(.negativeTime(trackID: 1, parameter: "timeRange.start", time: s(-1))) {
            try $0.removeTimeRange(r(-1, 1))
        }
        try expectRefusal(.nonPositiveDuration(trackID: 1, parameter: "timeRange.duration", duration: .zero)) {
            try $0.removeTimeRange(r(1, 1))
        }
        try expectRefusal(.invalidTime(trackID: 1, parameter: "timeRange.duration", time: .positiveInfinity)) {
            try $0.removeTimeRange(TimeRange(start: s(1), duration: .positiveInfinity))
        }
        try expectRefusal(.nonPositiveDuration(trackID: 1, parameter: "timeRange.duration", duration: s(-2))) {
            try $0.insertEmptyTimeRange(TimeRange(start: s(1), duration: s(-2)))
        }
        try expectRefusal(.emptyRangeAtEnd(trackID: 1, range: r(4, 6), trackEnd: s(4))) {
            try $0.insertEmptyTimeRange(r(4, 6))
        }
    }

    @Test func scaleErrors() throws {
        try expectRefusal(.nonPositiveDuration(trackID: 1, parameter: "duration", duration: .zero)) {
            try $0.scaleTimeRange(r(0, 2), toDuration: .zero)
        }
        try expectRefusal(.invalidTime(trackID: 1, parameter: "duration", time: .indefinite)) {
            try $0.scaleTimeRange(r(0, 2), toDuration: .indefinite)
        }
        // 33x: just past the limit.
        try expectRefusal(.speedOutOfRange(trackID: 1, sourceRange: r(1, 3), targetRange: r(s(1), s(35, 33)))) {
            try $0.scaleTimeRange(r(1, 3), toDuration: s(2, 33))
        }
        // 1/33x.
        try expectRefusal(.speedOutOfRange(trackID: 1, sourceRange: r(0, 4), targetRange: r(0, 132))) {
            try $0.scaleTimeRange(r(0, 4), toDuration: s(132))
        }
    }

    @Test func speedsCompoundAcrossScales() throws {
        // Two scales each within the limit compound past it: 16x, then 4x more = 64x.
        var edited = try track()
        try edited.scaleTimeRange(r(0, 4), toDuration: s(1, 4))
        let before = edited
        #expect(throws: CompositionError.speedOutOfRange(trackID: 1, sourceRange: r(0, 4), targetRange: r(s(0), s(1, 16)))) {
            try edited.scaleTimeRange(r(s(0), s(1, 4)), toDuration: s(1, 16))
        }
        #expect(edited == before)
    }

    @Test func aBoundaryThatNoMediaTimeCanHoldIsRefusedNotRounded() throws {
        // Two prime timescales: their sum needs a denominator above Int32.max.
        let p: Int32 = 2_147_483_647, q: Int32 = 2_147_483_629
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        try track.insertTimeRange(r(s(0), s(1, p)), of: clipA, at: .zero)
        let before = track
        #expect(throws: CompositionError.timeNotRepresentable(trackID: 1, operation: "insertTimeRange", time: s(1, p))) {
            try track.insertTimeRange(r(s(0), s(1, q)), of: clipA, at: .invalid)
        }
        #expect(track == before)
    }

    @Test func trackCreationErrors() {
        #expect(throws: CompositionError.invalidTrackID(0)) { try CompositionTrack(trackID: 0, mediaType: .video) }
        #expect(throws: CompositionError.unsupportedMediaType(.unknown)) {
            try CompositionTrack(trackID: 1, mediaType: .unknown)
        }
        #expect((try? CompositionTrack(trackID: 1, mediaType: .subtitle))?.mediaType == .subtitle)
    }

    // MARK: - The validator

    @Test func validatorAcceptsATilingAndTheEmptyList() throws {
        try CompositionTrack.validateSegments([])
        try CompositionTrack.validateSegments([
            F.gap(r(0, 1)), F.media(clipA, r(0, 2), r(1, 3)), F.gap(r(3, 4)), F.media(clipA, r(5, 6), r(4, 5)),
        ], trackID: 1, mediaType: .video)
    }

    @Test func validatorReportsTheFirstViolation() {
        let a = clipA
        #expect(throws: CompositionError.segmentGap(trackID: nil, index: 0, expectedStart: .zero, start: s(1))) {
            try CompositionTrack.validateSegments([F.media(a, r(0, 1), r(1, 2))])
        }
        #expect(throws: CompositionError.segmentGap(trackID: 3, index: 1, expectedStart: s(2), start: s(3))) {
            try CompositionTrack.validateSegments([F.media(a, r(0, 2), r(0, 2)), F.media(a, r(0, 1), r(3, 4))], trackID: 3)
        }
        #expect(throws: CompositionError.segmentOverlap(trackID: nil, index: 1, expectedStart: s(2), start: s(1))) {
            try CompositionTrack.validateSegments([F.media(a, r(0, 2), r(0, 2)), F.media(a, r(0, 1), r(1, 2))])
        }
        #expect(throws: CompositionError.nonPositiveDuration(
            trackID: nil, parameter: "segments[1].timeMapping.target.duration", duration: .zero)) {
            try CompositionTrack.validateSegments([F.media(a, r(0, 2), r(0, 2)), F.media(a, r(0, 1), r(2, 2))])
        }
        #expect(throws: CompositionError.trailingEmptySegment(trackID: nil, index: 1)) {
            try CompositionTrack.validateSegments([F.media(a, r(0, 2), r(0, 2)), F.gap(r(2, 3))])
        }
        #expect(throws: CompositionError.inconsistentEmptySegment(trackID: nil, index: 0)) {
            try CompositionTrack.validateSegments([
                CompositionTrackSegment(sourceTrack: a, timeMapping: TimeMapping(emptyTarget: r(0, 1))),
            ])
        }
        #expect(throws: CompositionError.inconsistentEmptySegment(trackID: nil, index: 0)) {
            var gap = F.gap(r(0, 1))
            gap.timeMapping.source = r(0, 1)
            try CompositionTrack.validateSegments([gap, F.media(a, r(0, 1), r(1, 2))])
        }
        #expect(throws: CompositionError.mediaTypeMismatch(
            trackID: 5, trackMediaType: .audio, sourceTrackID: 1, sourceMediaType: .video)) {
            try CompositionTrack.validateSegments([F.media(a, r(0, 1), r(0, 1))], trackID: 5, mediaType: .audio)
        }
        #expect(throws: CompositionError.sourceRangeOutsideSourceTrack(
            trackID: nil, sourceURL: a.assetURL, sourceTrackID: 1, range: r(9, 11), sourceTimeRange: r(0, 10))) {
            try CompositionTrack.validateSegments([F.media(a, r(9, 11), r(0, 2))])
        }
        #expect(throws: CompositionError.speedOutOfRange(trackID: nil, sourceRange: r(0, 10), targetRange: r(0, 321))) {
            try CompositionTrack.validateSegments([F.media(a, r(0, 10), r(0, 321))])
        }
        #expect(throws: CompositionError.invalidTime(
            trackID: nil, parameter: "segments[0].timeMapping.target.start", time: .invalid)) {
            try CompositionTrack.validateSegments([F.media(a, r(0, 1), TimeRange(start: .invalid, duration: s(1)))])
        }
    }

    @Test func aTrackCannotBeBuiltFromAnInvalidSegmentList() {
        #expect(throws: CompositionError.segmentGap(trackID: 4, index: 0, expectedStart: .zero, start: s(1))) {
            try CompositionTrack(trackID: 4, mediaType: .video, segments: [F.media(clipA, r(0, 1), r(1, 2))])
        }
    }

    // MARK: - Messages

    @Test func descriptionsAreSentencesWithSecondsAndExactFractions() {
        let outside = CompositionError.sourceRangeOutsideSourceTrack(
            trackID: 1, sourceURL: URL(fileURLWithPath: "/media/a.mov"), sourceTrackID: 2,
            range: r(s(8), s(12)), sourceTimeRange: r(s(0), s(6006, 600)))
        #expect(outside.description == "Composition track 1: source range [8.000 s (8/1), 12.000 s (12/1)) lies "
            + "outside [0.000 s (0/1), 10.010 s (6006/600)), the time range of track 2 of a.mov.")
        let speed = CompositionError.speedOutOfRange(trackID: 3, sourceRange: r(1, 3), targetRange: r(s(1), s(35, 33)))
        #expect(speed.description == "Composition track 3: source range [1.000 s (1/1), 3.000 s (3/1)) played over "
            + "[1.000 s (1/1), 1.061 s (35/33)) would run at speed 33.000x (33/1), outside the supported 1/32 ... 32.")
        let atEnd = CompositionError.emptyRangeAtEnd(trackID: nil, range: r(4, 5), trackEnd: s(4))
        #expect(atEnd.description == "Composition: empty range [4.000 s (4/1), 5.000 s (5/1)) starts at or after the "
            + "end (4.000 s (4/1)); an empty range can only be inserted before the end (as AVFoundation's "
            + "insertEmptyTimeRange).")
        #expect(CompositionError.negativeTime(trackID: 2, parameter: "startTime", time: s(-1001, 30000)).description
            == "Composition track 2: startTime is -0.033 s (-1001/30000), before composition time 0.")
        #expect(CompositionError.unknownTrackID(9).localizedDescription == "The composition has no track with ID 9.")
    }
}
