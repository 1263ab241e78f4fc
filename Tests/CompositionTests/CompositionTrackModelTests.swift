import Foundation
import Testing
import Composition

private typealias F = CompositionFixtures

/// Random edit sequences checked against a deliberately simple reference model: the track as an array of cells, one
/// per NTSC frame of composition time (1001/30000 s), each either a gap or "this source, from this source time, for
/// this source duration". Insert, remove, insert-empty and slow-down scales are array operations on the cells; the
/// expected segment list is the cells compressed into maximal runs (adjacent gaps, or the same source continuing
/// contiguously at the same speed). The track must match it exactly after every step — which also shows that
/// Splice's segment lists stay maximally merged.
@Suite("CompositionTrack against a reference model")
struct CompositionTrackModelTests {
    static let frame = MediaTime(value: 1001, timescale: 30000)
    static let sources = (0..<3).map { F.video("model\($0).mov", trackID: Int32($0) + 1, duration: frame * 300) }

    /// One frame of composition time.
    struct Cell: Equatable {
        var source: Int?
        var sourceStart: MediaTime
        var sourceDuration: MediaTime

        static let gap = Cell(source: nil, sourceStart: .invalid, sourceDuration: .invalid)
    }

    /// A small deterministic generator (SplitMix64), so a failure names a reproducible seed.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static func frames(_ n: Int) -> MediaTime { frame * Int64(n) }
    private static func frameRange(_ start: Int, _ count: Int) -> TimeRange {
        TimeRange(start: frames(start), duration: frames(count))
    }

    /// The canonical segment list of `cells`: maximal runs.
    private static func segments(of cells: [Cell]) -> [CompositionTrackSegment] {
        var result: [CompositionTrackSegment] = []
        var runStart = 0
        while runStart < cells.count {
            var runEnd = runStart + 1
            var sourceEnd = cells[runStart].sourceStart + cells[runStart].sourceDuration
            while runEnd < cells.count {
                let previous = cells[runEnd - 1], cell = cells[runEnd]
                let continues = cell.source == nil
                    ? previous.source == nil
                    : cell.source == previous.source && cell.sourceStart == sourceEnd
                        && cell.sourceDuration == previous.sourceDuration
                guard continues else { break }
                sourceEnd = cell.sourceStart + cell.sourceDuration
                runEnd += 1
            }
            let target = frameRange(runStart, runEnd - runStart)
            if let source = cells[runStart].source {
                let start = cells[runStart].sourceStart
                result.append(F.media(sources[source], TimeRange(start: start, duration: sourceEnd - start), target))
            } else {
                result.append(F.gap(target))
            }
            runStart = runEnd
        }
        return result
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomEditsMatchTheModel(seed: UInt64) throws {
        var random = SplitMix(state: seed)
        var track = try CompositionTrack(trackID: 1, mediaType: .video)
        var cells: [Cell] = []
        var counts = [String: Int]()

        for step in 0..<200 {
            let operation = Int.random(in: 0..<10, using: &random)
            var description = ""
            switch operation {
            case 0..<4:  // insert 1-12 frames of a source, usually inside the track, sometimes past it or appended
                let source = Int.random(in: 0..<3, using: &random)
                let start = Int.random(in: 0..<280, using: &random), count = Int.random(in: 1...12, using: &random)
                let append = Int.random(in: 0..<8, using: &random) == 0
                let at = append ? cells.count : Int.random(in: 0...(cells.count + 4), using: &random)
                description = "insert \(source)[\(start), +\(count)) at \(append ? "end" : "\(at)")"
                try track.insertTimeRange(
                    Self.frameRange(start, count), of: Self.sources[source], at: append ? .invalid : Self.frames(at))
                if at > cells.count { cells += Array(repeating: .gap, count: at - cells.count) }
                cells.insert(contentsOf: (0..<count).map {
                    Cell(source: source, sourceStart: Self.frames(start + $0), sourceDuration: Self.frame)
                }, at: at)
                counts["insert", default: 0] += 1
            case 4..<6:  // remove 1-10 frames, sometimes reaching past the end
                let start = Int.random(in: 0...(cells.count + 2), using: &random)
                let count = Int.random(in: 1...10, using: &random)
                description = "remove [\(start), +\(count))"
                try track.removeTimeRange(Self.frameRange(start, count))
                if start < cells.count { cells.removeSubrange(start ..< min(start + count, cells.count)) }
                while cells.last == .gap { cells.removeLast() }
                counts["remove", default: 0] += 1
            case 6..<8:  // insert 1-4 empty frames; at or after the end it must be refused
                let start = Int.random(in: 0...(cells.count + 1), using: &random)
                let count = Int.random(in: 1...4, using: &random)
                description = "insertEmpty [\(start), +\(count))"
                if start >= cells.count {
                    #expect(throws: CompositionError.emptyRangeAtEnd(
                        trackID: 1, range: Self.frameRange(start, count), trackEnd: Self.frames(cells.count))) {
                        try track.insertEmptyTimeRange(Self.frameRange(start, count))
                    }
                    counts["refused empty", default: 0] += 1
                } else {
                    try track.insertEmptyTimeRange(Self.frameRange(start, count))
                    cells.insert(contentsOf: Array(repeating: .gap, count: count), at: start)
                    counts["insertEmpty", default: 0] += 1
                }
            default:  // slow 1-6 frames down by 2 or 3 (each frame becomes that many frames)
                guard !cells.isEmpty, cells.count < 400 else { continue }
                let start = Int.random(in: 0..<cells.count, using: &random)
                let count = Int.random(in: 1...min(6, cells.count - start), using: &random)
                let factor = Int.random(in: 2...3, using: &random)
                description = "scale [\(start), +\(count)) x\(factor)"
                let slowed = cells[start ..< start + count].flatMap { cell -> [Cell] in
                    guard cell.source != nil else { return Array(repeating: .gap, count: factor) }
                    let duration = cell.sourceDuration.multiplied(byRatio: 1, over: Int64(factor))
                    return (0..<factor).map { k in
                        Cell(source: cell.source, sourceStart: cell.sourceStart + duration * Int64(k), sourceDuration: duration)
                    }
                }
                // Slower than 1/32 is refused: a cell lasts one frame, so its speed is sourceDuration / frame.
                let tooSlow = slowed.contains { $0.source != nil && $0.sourceDuration * 32 < Self.frame }
                let before = track
                do {
                    try track.scaleTimeRange(Self.frameRange(start, count), toDuration: Self.frames(count * factor))
                    #expect(!tooSlow, "step \(step) (\(description)) should have been refused")
                    cells.replaceSubrange(start ..< start + count, with: slowed)
                    counts["scale", default: 0] += 1
                } catch let error as CompositionError {
                    guard case .speedOutOfRange = error, tooSlow else { throw error }
                    #expect(track == before)
                    counts["refused scale", default: 0] += 1
                }
            }
            let expected = Self.segments(of: cells)
            try CompositionTrack.validateSegments(track.segments, trackID: 1, mediaType: .video)
            #expect(track.timeRange.end == Self.frames(cells.count))
            if track.segments != expected {
                let actual = F.describe(track.segments), wanted = F.describe(expected)
                Issue.record("seed \(seed) step \(step) (\(description)); actual:\n\(actual)\nexpected:\n\(wanted)")
                return
            }
        }
        // The sequence exercised every kind of edit.
        #expect(["insert", "remove", "insertEmpty", "scale"].allSatisfy { counts[$0, default: 0] > 10 }, "\(counts)")
    }
}
