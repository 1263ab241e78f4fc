import Foundation
import Testing
import Splice
import SpliceTestSupport

extension Reliability {
    /// A loop of short exports (1 s of clipA with music each) keeps resident memory flat, measured in a child process
    /// of its own (``ChildTest``: no other test allocates there). CI runs ``boundedCount`` exports (about ten seconds);
    /// `SPLICE_LEAK_LOOP=<exports>` runs the long form (`scripts/rss-loop 200` does, and prints the figures).
    @Suite("Memory: a loop of exports keeps RSS flat")
    struct MemoryLoopTests {
        /// The exports CI runs: enough for three samples after the warm-up (after 10, 20 and 30 exports).
        static let boundedCount = 30
        /// The exports to run: `SPLICE_LEAK_LOOP`, or ``boundedCount``.
        static let count = ProcessInfo.processInfo.environment["SPLICE_LEAK_LOOP"].flatMap(Int.init) ?? boundedCount

        @Test func aLoopOfExportsKeepsResidentMemoryFlat() async throws {
            let count = Self.count
            let result = try await onWorkerThread {
                try ChildTest.run(filter: "MemoryLoopTests/loopChild", role: "rss-loop",
                                  environment: ["SPLICE_LEAK_LOOP": "\(count)"], timeout: 120 + 10 * Double(count))
            }
            for line in result.output.split(separator: "\n") where line.hasPrefix("rss") { print(line) }
            #expect(result.status == 0 && !result.timedOut, "child: \(result.output.suffix(4000))")
            #expect(result.reports["exports"] == "\(count)")
        }

        @Test(.enabled(if: ChildTest.is("rss-loop")))
        func loopChild() async throws {
            let count = Self.count
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
            var exported = 0
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
                exported += 1
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
            #expect(settled.count >= 2, "too few samples to compare: \(count) exports")
            #expect(late - early < 8 << 20)
            ChildTest.report("exports", "\(exported)")
        }
    }
}
