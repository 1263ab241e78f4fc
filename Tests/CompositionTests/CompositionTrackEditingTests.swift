import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }
private func r(_ start: MediaTime, _ end: MediaTime) -> TimeRange { F.range(start, end) }
private func r(_ start: Int64, _ end: Int64) -> TimeRange { F.range(s(start), s(end)) }

@Suite("CompositionTrack editing")
struct CompositionTrackEditingTests {
    let clipA = F.video("a.mov", duration: s(10))
    let clipB = F.video("b.mov", duration: s(6))

    private func videoTrack() throws -> CompositionTrack {
        try CompositionTrack(trackID: 1, mediaType: .video)
    }

    // MARK: - The AVFoundation examples

    @Test func twoClipsBackToBack() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 3), of: clipB, at: .invalid)
        F.expectSegments(track, [F.media(clipA, r(0, 4), r(0, 4)), F.media(clipB, r(0, 3), r(4, 7))])
        #expect(track.timeRange == r(0, 7))
    }

    @Test func twoTimesSpeedUpInTheMiddle() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try track.scaleTimeRange(r(2, 6), toDuration: s(2))
        F.expectSegments(track, [
            F.media(clipA, r(0, 2), r(0, 2)), F.media(clipA, r(2, 6), r(2, 4)), F.media(clipA, r(6, 10), r(4, 8)),
        ])
        #expect(track.segments[1].timeMapping.speed == 2)
        #expect(track.timeRange.end == s(8))
    }

    @Test func removingAcrossASegmentBoundary() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 3), of: clipB, at: s(4))
        try track.removeTimeRange(r(3, 5))
        F.expectSegments(track, [F.media(clipA, r(0, 3), r(0, 3)), F.media(clipB, r(1, 3), r(3, 5))])
    }

    @Test func insertingIntoTheMiddleOfASegmentSplitsIt() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 2), of: clipB, at: s(4))
        F.expectSegments(track, [
            F.media(clipA, r(0, 4), r(0, 4)), F.media(clipB, r(0, 2), r(4, 6)), F.media(clipA, r(4, 10), r(6, 12)),
        ])
    }

    @Test func insertingAtASegmentBoundaryRipplesWithoutSplitting() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 3), of: clipB, at: .invalid)
        try track.insertTimeRange(r(5, 6), of: clipA, at: s(4))
        F.expectSegments(track, [
            F.media(clipA, r(0, 4), r(0, 4)), F.media(clipA, r(5, 6), r(4, 5)), F.media(clipB, r(0, 3), r(5, 8)),
        ])
        try track.insertTimeRange(r(1, 2), of: clipB, at: .zero)
        F.expectSegments(track, [
            F.media(clipB, r(1, 2), r(0, 1)), F.media(clipA, r(0, 4), r(1, 5)), F.media(clipA, r(5, 6), r(5, 6)),
            F.media(clipB, r(0, 3), r(6, 9)),
        ])
    }

    // MARK: - Gaps

    @Test func insertingPastTheEndLeavesAnEmptySegment() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 2), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 1), of: clipB, at: s(5))
        F.expectSegments(track, [F.media(clipA, r(0, 2), r(0, 2)), F.gap(r(2, 5)), F.media(clipB, r(0, 1), r(5, 6))])
        #expect(track.segment(forTrackTime: s(3))?.isEmpty == true)
    }

    @Test func insertingIntoAnEmptyTrackAtALaterTimeStartsWithAGap() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 1), of: clipA, at: s(2))
        F.expectSegments(track, [F.gap(r(0, 2)), F.media(clipA, r(0, 1), r(2, 3))])
    }

    @Test func insertEmptyTimeRangeSplitsAndMergesWithNeighbouringGaps() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        try track.insertEmptyTimeRange(r(1, 3))
        F.expectSegments(track, [F.media(clipA, r(0, 1), r(0, 1)), F.gap(r(1, 3)), F.media(clipA, r(1, 4), r(3, 6))])
        try track.insertEmptyTimeRange(r(2, 3))
        F.expectSegments(track, [F.media(clipA, r(0, 1), r(0, 1)), F.gap(r(1, 4)), F.media(clipA, r(1, 4), r(4, 7))])
        // At the start of a media segment right after a gap: the gap grows.
        try track.insertEmptyTimeRange(r(4, 5))
        F.expectSegments(track, [F.media(clipA, r(0, 1), r(0, 1)), F.gap(r(1, 5)), F.media(clipA, r(1, 4), r(5, 8))])
    }

    @Test func insertEmptyTimeRangeAtOrAfterTheEndIsAnError() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        let before = track
        #expect(throws: CompositionError.emptyRangeAtEnd(trackID: 1, range: r(4, 5), trackEnd: s(4))) {
            try track.insertEmptyTimeRange(r(4, 5))
        }
        #expect(throws: CompositionError.emptyRangeAtEnd(trackID: 1, range: r(6, 7), trackEnd: s(4))) {
            try track.insertEmptyTimeRange(r(6, 7))
        }
        var empty = try videoTrack()
        #expect(throws: CompositionError.emptyRangeAtEnd(trackID: 1, range: r(0, 1), trackEnd: .zero)) {
            try empty.insertEmptyTimeRange(r(0, 1))
        }
        #expect(track == before)
    }

    // MARK: - Remove

    @Test func removeInsideOneSegmentCutsItInTwo() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try track.removeTimeRange(r(3, 5))
        F.expectSegments(track, [F.media(clipA, r(0, 3), r(0, 3)), F.media(clipA, r(5, 10), r(3, 8))])
    }

    @Test func removeNeverLeavesATrailingGapAndNeverDeletesTheTrack() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 2), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 1), of: clipB, at: s(5))
        try track.removeTimeRange(r(4, 6))
        F.expectSegments(track, [F.media(clipA, r(0, 2), r(0, 2))])
        try track.removeTimeRange(r(0, 100))
        F.expectSegments(track, [])
        #expect(track.timeRange == .zero)
    }

    @Test func removeInsideAGapShrinksIt() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 2), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 1), of: clipB, at: s(5))
        try track.removeTimeRange(r(3, 4))
        F.expectSegments(track, [F.media(clipA, r(0, 2), r(0, 2)), F.gap(r(2, 4)), F.media(clipB, r(0, 1), r(4, 5))])
        // Removing the whole gap joins the clips.
        try track.removeTimeRange(r(2, 4))
        F.expectSegments(track, [F.media(clipA, r(0, 2), r(0, 2)), F.media(clipB, r(0, 1), r(2, 3))])
    }

    @Test func removePastTheEndRemovesOnlyWhatIsThere() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        try track.removeTimeRange(r(3, 10))
        F.expectSegments(track, [F.media(clipA, r(0, 3), r(0, 3))])
        try track.removeTimeRange(r(5, 6))
        F.expectSegments(track, [F.media(clipA, r(0, 3), r(0, 3))])
    }

    @Test func removeAcrossSeveralSegmentsAndAGap() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 2), of: clipA, at: .zero)         // A [0,2)
        try track.insertTimeRange(r(0, 2), of: clipB, at: s(3))          // gap [2,3), B [3,5)
        try track.insertTimeRange(r(4, 8), of: clipA, at: .invalid)     // A [5,9)
        try track.removeTimeRange(r(1, 6))
        F.expectSegments(track, [F.media(clipA, r(0, 1), r(0, 1)), F.media(clipA, r(5, 8), r(1, 4))])
    }

    // MARK: - Merging after a split and re-join

    @Test func insertThenRemoveRejoinsTheSplitSegment() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 2), of: clipB, at: s(4))
        try track.removeTimeRange(r(4, 6))
        F.expectSegments(track, [F.media(clipA, r(0, 10), r(0, 10))])
    }

    @Test func reinsertingTheRemovedPieceRejoinsAllThree() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try track.removeTimeRange(r(3, 5))
        try track.insertTimeRange(r(3, 5), of: clipA, at: s(3))
        F.expectSegments(track, [F.media(clipA, r(0, 10), r(0, 10))])
    }

    @Test func appendingTheNextPieceOfTheSameSourceExtendsTheSegment() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 2), of: clipA, at: .zero)
        try track.insertTimeRange(r(2, 5), of: clipA, at: .invalid)
        F.expectSegments(track, [F.media(clipA, r(0, 5), r(0, 5))])
        // A different source track with the same times does not merge.
        let otherTrackOfA = F.video("a.mov", trackID: 3, duration: s(10))
        try track.insertTimeRange(r(5, 6), of: otherTrackOfA, at: .invalid)
        #expect(track.segments.count == 2)
    }

    // MARK: - Scale

    @Test func scaleAcrossASegmentBoundarySlowsBothParts() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 4), of: clipB, at: .invalid)
        try track.scaleTimeRange(r(2, 6), toDuration: s(8))
        F.expectSegments(track, [
            F.media(clipA, r(0, 2), r(0, 2)), F.media(clipA, r(2, 4), r(2, 6)),
            F.media(clipB, r(0, 2), r(6, 10)), F.media(clipB, r(2, 4), r(10, 12)),
        ])
        #expect(track.segments.map(\.timeMapping.speed) == [1, 0.5, 0.5, 1])
    }

    @Test func scalingBackToTheOriginalDurationMergesTheSegmentAgain() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try track.scaleTimeRange(r(2, 6), toDuration: s(2))
        try track.scaleTimeRange(r(2, 4), toDuration: s(4))
        F.expectSegments(track, [F.media(clipA, r(0, 10), r(0, 10))])
    }

    @Test func scalingARangeThatReachesPastTheEndScalesWhatIsThereByTheSameFactor() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        try track.scaleTimeRange(r(2, 10), toDuration: s(4))  // factor 1/2
        F.expectSegments(track, [F.media(clipA, r(0, 2), r(0, 2)), F.media(clipA, r(2, 4), r(2, 3))])
        try track.scaleTimeRange(r(5, 6), toDuration: s(9))  // starts after the end: nothing to do
        F.expectSegments(track, [F.media(clipA, r(0, 2), r(0, 2)), F.media(clipA, r(2, 4), r(2, 3))])
    }

    @Test func scaleStretchesGapsLikeMedia() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 2), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 1), of: clipB, at: s(4))
        try track.scaleTimeRange(r(1, 5), toDuration: s(8))
        F.expectSegments(track, [
            F.media(clipA, r(0, 1), r(0, 1)), F.media(clipA, r(1, 2), r(1, 3)), F.gap(r(3, 7)),
            F.media(clipB, r(0, 1), r(7, 9)),
        ])
    }

    @Test func speedLimitsAreInclusive() throws {
        var fast = try videoTrack()
        try fast.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try fast.scaleTimeRange(r(0, 10), toDuration: s(10, 32))
        F.expectSegments(fast, [F.media(clipA, r(0, 10), r(s(0), s(10, 32)))])
        var slow = try videoTrack()
        try slow.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try slow.scaleTimeRange(r(0, 10), toDuration: s(320))
        F.expectSegments(slow, [F.media(clipA, r(0, 10), r(0, 320))])
    }

    @Test func splittingAScaledSegmentMapsTheSourceExactly() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 10), of: clipA, at: .zero)
        try track.scaleTimeRange(r(0, 10), toDuration: s(30))  // speed 1/3
        try track.insertTimeRange(r(0, 1), of: clipB, at: s(1))
        F.expectSegments(track, [
            F.media(clipA, r(s(0), s(1, 3)), r(0, 1)), F.media(clipB, r(0, 1), r(1, 2)),
            F.media(clipA, r(s(1, 3), s(10)), r(2, 31)),
        ])
        try track.removeTimeRange(r(1, 2))
        F.expectSegments(track, [F.media(clipA, r(0, 10), r(0, 30))])
    }

    // MARK: - Still images

    @Test func aStillImageCanBeInsertedForAnyFiniteDurationAndScaledFreely() throws {
        let photo = F.still("photo.jpg")
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 3), of: photo, at: .zero)
        try track.insertTimeRange(r(0, 36000), of: photo, at: .invalid)
        F.expectSegments(track, [F.media(photo, r(0, 3), r(0, 3)), F.media(photo, r(0, 36000), r(3, 36003))])
        try track.scaleTimeRange(r(0, 3), toDuration: s(300))  // "speed" 1/100: no limit for a still
        #expect(track.segments[0].timeMapping.target == r(0, 300))
        #expect(track.naturalSize == Size(width: 2016, height: 1512))
        #expect(throws: CompositionError.invalidTime(trackID: 1, parameter: "timeRange.duration", time: .positiveInfinity)) {
            try track.insertTimeRange(TimeRange(start: .zero, duration: .positiveInfinity), of: photo, at: .zero)
        }
    }

    // MARK: - Track properties and queries

    @Test func theFirstSourceSetsTransformSizeAndTimescale() throws {
        let portrait = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0)
        let phone = F.video("m01.mov", duration: s(1321, 600), size: Size(width: 568, height: 320), transform: portrait)
        var track = try videoTrack()
        #expect(track.preferredTransform == .identity && track.naturalSize == .zero && track.naturalTimeScale == 600)
        try track.insertTimeRange(r(s(0), s(1321, 600)), of: phone, at: .zero)
        #expect(track.preferredTransform == portrait)
        #expect(track.naturalSize == Size(width: 568, height: 320))
        // Later sources don't change them.
        try track.insertTimeRange(r(0, 1), of: clipA, at: .invalid)
        #expect(track.preferredTransform == portrait)
        #expect(track.naturalSize == Size(width: 568, height: 320))

        var audio = try CompositionTrack(trackID: 2, mediaType: .audio)
        try audio.insertTimeRange(r(0, 1), of: F.audio("m01.mov", duration: s(2)), at: .zero)
        #expect(audio.naturalTimeScale == 44100)
        #expect(audio.naturalSize == .zero && audio.preferredTransform == .identity)
        #expect(audio.preferredVolume == 1 && audio.isEnabled)
    }

    @Test func segmentForTrackTimeIsHalfOpen() throws {
        var track = try videoTrack()
        try track.insertTimeRange(r(0, 4), of: clipA, at: .zero)
        try track.insertTimeRange(r(0, 3), of: clipB, at: .invalid)
        #expect(track.segment(forTrackTime: .zero)?.sourceURL?.lastPathComponent == "a.mov")
        #expect(track.segment(forTrackTime: s(3999, 1000))?.sourceURL?.lastPathComponent == "a.mov")
        #expect(track.segment(forTrackTime: s(4))?.sourceURL?.lastPathComponent == "b.mov")
        #expect(track.segment(forTrackTime: s(7)) == nil)
        #expect(track.segment(forTrackTime: s(-1)) == nil)
        #expect(track.segment(forTrackTime: .invalid) == nil)
    }
}
