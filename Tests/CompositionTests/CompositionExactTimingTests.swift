import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }

/// NTSC frame times (1001/30000 s) cut from timescale-600 sources stay exact through every edit: no boundary is
/// rounded, and every segment boundary is the exact sum it should be.
@Suite("Composition exact timing")
struct CompositionExactTimingTests {
    /// One NTSC frame, 1001/30000 s.
    static let frame = s(1001, 30000)
    /// `n` frames.
    static func frames(_ n: Int64) -> MediaTime { frame * n }
    /// The range of frames `[from, to)`.
    static func frameRange(_ from: Int64, _ to: Int64) -> TimeRange { F.range(frames(from), frames(to)) }

    // Phone footage in timescale 600, 10.010 s = 300 NTSC frames each.
    let sourceA = F.video("a.mov", duration: s(6006, 600))
    let sourceB = F.video("b.mov", duration: s(6006, 600))

    private func expectExact(_ track: CompositionTrack, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: Never.self, sourceLocation: sourceLocation) {
            try CompositionTrack.validateSegments(track.segments, trackID: track.trackID, mediaType: track.mediaType)
        }
        let times = track.segments.flatMap { segment -> [MediaTime] in
            let m = segment.timeMapping
            return [m.target.start, m.target.duration] + (segment.isEmpty ? [] : [m.source.start, m.source.duration])
        }
        #expect(times.allSatisfy { $0.isNumeric && !$0.hasBeenRounded }, sourceLocation: sourceLocation)
    }

    /// 90 single frames taken alternately from A and B (even frames of each, so nothing merges).
    private func ninetyFrames() throws -> CompositionTrack {
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        for k: Int64 in 0..<90 {
            try track.insertTimeRange(Self.frameRange(k, k + 1), of: k % 2 == 0 ? sourceA : sourceB, at: .invalid)
        }
        return track
    }

    @Test func appendedNTSCFramesEndExactlyOnTheFrameGrid() throws {
        let track = try ninetyFrames()
        #expect(track.segments.count == 90)
        #expect(track.timeRange.end == s(90090, 30000))
        #expect(track.timeRange.end.timescale == 30000)
        for (k, segment) in track.segments.enumerated() {
            #expect(segment.timeMapping.target == Self.frameRange(Int64(k), Int64(k) + 1))
            if k > 0 { #expect(segment.timeMapping.target.start.timescale == 30000) }  // (0 is 0/1)
        }
        expectExact(track)
    }

    @Test func ticksOf600AndFramesOf30000Mix() throws {
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        try track.insertTimeRange(Self.frameRange(0, 1), of: sourceA, at: .zero)
        // 20/600 s = exactly 1/30 s: a 30 fps frame from the source's own timescale.
        try track.insertTimeRange(TimeRange(start: s(20, 600), duration: s(20, 600)), of: sourceB, at: .invalid)
        #expect(track.timeRange.end == s(2001, 30000))
        #expect(track.timeRange.end.timescale == 30000)
        try track.insertTimeRange(Self.frameRange(3, 4), of: sourceA, at: s(1001, 30000))
        #expect(track.segments.map(\.timeMapping.target.start) == [.zero, s(1001, 30000), s(2002, 30000)])
        #expect(track.timeRange.end == s(3002, 30000))
        expectExact(track)
    }

    @Test func doubleSpeedOverThirtyFramesHalvesEachFrameExactly() throws {
        var track = try ninetyFrames()
        try track.scaleTimeRange(Self.frameRange(10, 40), toDuration: Self.frames(15))
        #expect(track.segments.count == 90)
        #expect(track.timeRange.end == Self.frames(75))
        for (k, segment) in track.segments.enumerated() {
            let mapping = segment.timeMapping
            let expectedDuration = (10..<40).contains(k) ? s(1001, 60000) : Self.frame
            #expect(mapping.target.duration == expectedDuration, "segment \(k)")
            #expect(mapping.source.duration == Self.frame)
        }
        #expect(track.segments[40].timeMapping.target.start == Self.frames(25))
        expectExact(track)

        // Remove half a fast frame, splitting it: the source cut lands exactly 1001/30000 × 1/2 × 2 into it.
        let halfFastFrame = s(1001, 120000)
        let fast = track.segments[12].timeMapping
        try track.removeTimeRange(TimeRange(start: fast.target.start, duration: halfFastFrame))
        let cut = track.segments[12].timeMapping
        #expect(cut.source == TimeRange(start: fast.source.start + s(1001, 60000), duration: s(1001, 60000)))
        #expect(cut.target == TimeRange(start: fast.target.start, duration: halfFastFrame))
        #expect(track.timeRange.end == Self.frames(75) - halfFastFrame)
        expectExact(track)
    }

    @Test func aPullDownFrom29_97To30IsExact() throws {
        // Play 29.97 fps material at 30 fps: speed 1001/1000, each frame lasting exactly 1/30 s.
        var track = try ninetyFrames()
        try track.scaleTimeRange(track.timeRange, toDuration: s(3))
        #expect(track.timeRange.end == s(3))
        #expect(track.segments.allSatisfy { $0.timeMapping.target.duration == s(1, 30) })
        #expect(track.segments[45].timeMapping.target.start == s(45, 30))
        expectExact(track)
        // And back again.
        try track.scaleTimeRange(track.timeRange, toDuration: s(90090, 30000))
        #expect(track.segments.enumerated().allSatisfy { k, segment in
            segment.timeMapping.target == Self.frameRange(Int64(k), Int64(k) + 1)
        })
        expectExact(track)
    }

    @Test func insertingAFrameIntoTheMiddleOfASegmentInTimescale600() throws {
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        try track.insertTimeRange(TimeRange(start: .zero, duration: s(6006, 600)), of: sourceA, at: .zero)
        try track.insertTimeRange(Self.frameRange(0, 1), of: sourceB, at: Self.frames(100))
        #expect(track.segments.map(\.timeMapping.source) == [
            TimeRange(start: .zero, duration: Self.frames(100)), Self.frameRange(0, 1),
            TimeRange(start: Self.frames(100), duration: Self.frames(200)),
        ])
        #expect(track.timeRange.end == Self.frames(301))
        expectExact(track)
    }
}
