import Foundation
import Testing
import Splice
import SpliceTestSupport

extension Reliability {
    /// A long loop of short exports keeps resident memory flat. Opt-in (it takes a minute): `SPLICE_LEAK_LOOP=200`
    /// (the number of exports) — `scripts/rss-loop` runs it alone in its own process and prints the figures.
    @Suite("Memory: a loop of exports keeps RSS flat")
    struct MemoryLoopTests {
        static let count = ProcessInfo.processInfo.environment["SPLICE_LEAK_LOOP"].flatMap(Int.init)

        @Test(.enabled(if: count != nil, "set SPLICE_LEAK_LOOP=<exports> to run"))
        func aLoopOfExportsKeepsResidentMemoryFlat() async throws {
            let count = try #require(Self.count)
            let scratch = try ScratchDirectory("rss-loop")
            defer { scratch.remove() }
            let clip = try await Fixture.asset("canonical/clipA.mp4")
            let music = try await Fixture.asset("canonical/music.m4a")
            var composition = MutableComposition()
            try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: clip, at: .zero)
            let musicTrack = try composition.addMutableTrack(withMediaType: .audio)
            try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: music.tracks[0],
                                            at: .zero, intoTrackWithID: musicTrack)
            let output = scratch.file("out.mp4")
            var samples: [(export: Int, resident: Int, raw: Int)] = []
            for index in 0...count {
                if index % 10 == 0 {
                    let raw = ProcessStats.residentBytes
                    samples.append((index, ProcessStats.trimmedResidentBytes, raw))
                }
                guard index < count else { break }
                let session = AssetExportSession(asset: composition, settings: FastSettings.make())
                session.outputURL = output
                session.overwritesExistingFile = true
                try await session.export()
            }
            for sample in samples {
                print("rss after \(String(sample.export).leftPadded(4)) exports: \(ProcessStats.megabytes(sample.resident)) "
                      + "(\(ProcessStats.megabytes(sample.raw)) before malloc_trim)")
            }
            // Flat: the last quarter of the samples is within 8 MB of the first quarter (after the first ten exports,
            // which load libraries and warm caches).
            let settled = Array(samples.dropFirst())
            let quarter = max(1, settled.count / 4)
            let early = settled.prefix(quarter).map(\.resident).reduce(0, +) / quarter
            let late = settled.suffix(quarter).map(\.resident).reduce(0, +) / quarter
            print("rss loop: \(count) exports, early mean \(ProcessStats.megabytes(early)), late mean \(ProcessStats.megabytes(late)), "
                  + "growth \(ProcessStats.megabytes(late - early))")
            #expect(late - early < 8 << 20)
        }
    }
}
