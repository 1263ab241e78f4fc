import Foundation
import Testing
import SpliceTestSupport

extension Reliability {
    /// Many short exports in one process, two at a time (the way `splice batch` and services run them), leave
    /// nothing behind: after 10 and after 40 exports — every export ended each time — the process has the same open
    /// files and threads, and resident memory within 8 MiB (`VmRSS` after `malloc_trim(0)`: glibc's cached free
    /// pages are not a leak; the exports of 160x90 pictures move it by ±6 MiB). It runs in a process of its own (`splice-bench
    /// many-exports`, Benchmarks/run's M1 at a fifth of its length): the test process's other suites would move
    /// all three figures.
    @Suite("Many exports in one process")
    struct ManyExportsTests {
        /// `splice-bench`, built beside the test bundle by `swift build --build-tests`.
        static func bench() throws -> URL {
            let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            let candidates = [folder.appendingPathComponent("splice-bench"),
                              Fixture.packageRoot.appendingPathComponent(".build/debug/splice-bench")]
            return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                                "splice-bench is not built (swift build --build-tests builds it): \(candidates.map(\.path))")
        }

        /// Runs `executable arguments…` (at most `seconds`), returning its standard output.
        static func output(of executable: String, _ arguments: [String], seconds: Double) async throws -> String {
            let run = try await Executable.run(executable, arguments, timeout: seconds)
            #expect(run.succeeded, "\(executable) \(arguments): \(run.errors)")
            return run.output
        }

        @Test func fortyExportsTwoAtATimeLeaveFilesThreadsAndMemoryFlat() async throws {
            let scratch = try ScratchDirectory("many-exports")
            defer { scratch.remove() }
            let summary = try await Self.output(of: try Self.bench().path, [
                "many-exports", "--clip", Fixture.url("canonical/clipA.mp4").path, "--out-dir", scratch.url.path,
                "--count", "40", "--concurrent", "2", "--sample-after", "10,40", "--seconds", "1", "--size", "160x90",
            ], seconds: 300)
            // `… after=10 rss-kib=R trimmed-kib=M fds=F threads=T after=40 rss-kib=R trimmed-kib=M fds=F threads=T …`
            func figures(after count: Int) -> [String: Int] {
                guard let range = summary.range(of: "after=\(count) ") else { return [:] }
                var values: [String: Int] = [:]
                for field in summary[range.upperBound...].split(separator: " ").prefix(4) {
                    let parts = field.split(separator: "=")
                    if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
                }
                return values
            }
            let early = figures(after: 10), late = figures(after: 40)
            print("many exports: \(summary)")
            #expect(early.count == 4 && late.count == 4, "\(summary)")
            #expect(late["fds"] == early["fds"], "open files after 10 and 40 exports: \(summary)")
            #expect(late["threads"] == early["threads"], "threads after 10 and 40 exports: \(summary)")
            let growth = (late["trimmed-kib"] ?? .max) - (early["trimmed-kib"] ?? 0)
            #expect(growth < 8192, "resident memory grew \(growth) KiB from the 10th to the 40th export: \(summary)")

            // The exports are real: 1 s of the 30 fps clip at 160x90, read back by ffprobe.
            let ffprobe = try #require(Executable.find("ffprobe"), "ffprobe is not on PATH")
            for index in [10, 40] {
                let probe = try await Self.output(of: ffprobe, [
                    "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                    "stream=width,height,nb_read_packets,duration", "-of", "csv=p=0", scratch.file("\(index).mp4").path,
                ], seconds: 60)
                #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "160,90,1.000000,30", "\(index).mp4: \(probe)")
            }
        }
    }
}
