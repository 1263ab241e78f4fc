import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures
private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { F.time(value, timescale) }

/// Editing cost on a long timeline: builds 1,000-segment compositions and edits them, printing the elapsed times
/// (a figure to watch, not a timed assertion). Each operation is O(n) in the segments of the tracks it touches, so
/// the totals should grow about linearly with the number of edits.
@Suite("Composition scaling")
struct CompositionScalingTests {
    static let frame = s(1001, 30000)

    private static func milliseconds(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f ms", ms)
    }

    @Test func aThousandSegmentTrackEditsQuickly() throws {
        let sources = (0..<4).map { F.video("clip\($0).mov", duration: s(6006, 600)) }
        let clock = ContinuousClock()
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)

        // 1,000 one-frame cuts appended, cycling through four sources so nothing merges.
        let build = try clock.measure {
            for k: Int64 in 0..<1000 {
                let range = TimeRange(start: Self.frame * (k % 250), duration: Self.frame)
                try composition.insertTimeRange(range, of: sources[Int(k % 4)], at: .invalid, intoTrackWithID: id)
            }
        }
        #expect(composition.track(withTrackID: id)?.segments.count == 1000)
        #expect(composition.duration == Self.frame * 1000)

        // 400 edits in the middle of the timeline: 100 each of insert, remove, scale and insert-empty.
        var edits = 0
        let edit = try clock.measure {
            for k: Int64 in 0..<100 {
                let at = Self.frame * (300 + k * 3)
                try composition.insertTimeRange(
                    TimeRange(start: .zero, duration: Self.frame), of: sources[Int(k % 4)], at: at, intoTrackWithID: id)
                try composition.removeTimeRange(TimeRange(start: at + s(1001, 60000), duration: Self.frame))
                try composition.scaleTimeRange(TimeRange(start: at, duration: Self.frame * 2), toDuration: Self.frame)
                try composition.insertEmptyTimeRange(TimeRange(start: at, duration: s(1, 30)))
                edits += 4
            }
        }
        let track = try #require(composition.track(withTrackID: id))
        try CompositionTrack.validateSegments(track.segments, trackID: id, mediaType: .video)
        let segmentCount = track.segments.count
        #expect(segmentCount > 1000)
        print("[Composition scaling] built 1000 segments by append in \(Self.milliseconds(build)); "
            + "\(edits) mid-timeline edits on ~\(segmentCount) segments in \(Self.milliseconds(edit)) "
            + "(\(Self.milliseconds(edit / edits)) per edit)")

        // Queries are O(log n).
        let lookups = clock.measure {
            for k: Int64 in 0..<10_000 {
                _ = track.segment(forTrackTime: Self.frame * (k % 1000))
            }
        }
        print("[Composition scaling] 10000 segment(forTrackTime:) lookups in \(Self.milliseconds(lookups))")
    }

    @Test func aThousandWholeAssetInsertsIntoTwoTracks() throws {
        let clips = (0..<2).map { n in
            F.asset("pair\(n).mov", tracks: [
                F.video("pair\(n).mov", trackID: 1, duration: s(6006, 600)),
                F.audio("pair\(n).mov", trackID: 2, duration: s(6006, 600), sampleRate: 48000),
            ])
        }
        let clock = ContinuousClock()
        var composition = MutableComposition()
        let build = try clock.measure {
            for k in 0..<1000 {
                try composition.insertTimeRange(
                    TimeRange(start: Self.frame * Int64(k % 200), duration: Self.frame), of: clips[k % 2], at: .invalid)
            }
        }
        #expect(composition.tracks.count == 2)
        #expect(composition.tracks.map(\.segments.count) == [1000, 1000])
        let edit = try clock.measure {
            for k: Int64 in 0..<50 {
                let at = Self.frame * (500 + k)
                try composition.insertTimeRange(TimeRange(start: .zero, duration: Self.frame), of: clips[0], at: at)
                try composition.scaleTimeRange(TimeRange(start: at, duration: Self.frame), toDuration: s(1, 60))
                try composition.removeTimeRange(TimeRange(start: at, duration: s(1, 120)))
            }
        }
        for track in composition.tracks {
            try CompositionTrack.validateSegments(track.segments, trackID: track.trackID, mediaType: track.mediaType)
        }
        print("[Composition scaling] 1000 whole-asset appends (video + audio) in \(Self.milliseconds(build)); "
            + "150 composition-wide edits on 2 x ~1000 segments in \(Self.milliseconds(edit))")
    }
}
