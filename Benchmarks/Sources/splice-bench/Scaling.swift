import Foundation
import Splice

/// How Splice's cost grows with the size of a timeline (`Benchmarks/run --only S1,S2`).
enum Scaling {
    /// S1: W2's kind of edit (``Workloads/dissolves(inputs:clips:clipSeconds:dissolveSeconds:transition:)``: 2 s clips
    /// alternately from A and B on two tracks, a 0.5 s cross-dissolve and cross-fade at every join) with `clips`
    /// clips, taken through the stages before the first encoded frame, each timed on its own:
    /// - `build`: the two sources loaded and the composition, video composition and audio mix built;
    /// - `validate`: ``AssetExportSession/validate()`` (every check an export makes, the export planned);
    /// - `plan`: ``AssetExportSession/filterGraphDescription()`` (planned again, every configuration's graph compiled);
    /// - `first-frame`: the picture at time 0 through ``AssetImageGenerator`` (planned, the first source opened and
    ///   decoded, the first graph built and run).
    /// Prints each stage's wall and CPU seconds (all threads), its CPU microseconds per clip (steady on a loaded
    /// machine, unlike wall time), and the resident memory (`VmRSS`, MiB) after it.
    static func stages(inputs: URL, clips: Int) async throws -> String {
        let clock = ContinuousClock()
        var fields = ["clips=\(clips)", "rss-start=\(format(residentMiB()))"]
        func timed<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
            let start = clock.now, cpuStart = cpuSeconds()
            let value = try await body()
            let seconds = (clock.now - start).seconds, cpu = cpuSeconds() - cpuStart
            fields += ["\(name)=\(format(seconds, 4))", "\(name)-cpu=\(format(cpu, 4))",
                       "\(name)-per-clip-us=\(format(cpu / Double(clips) * 1e6, 2))",
                       "rss-after-\(name)=\(format(residentMiB()))"]
            return value
        }
        let edit = try await timed("build") {
            try await Workloads.dissolves(inputs: inputs, clips: clips, clipSeconds: MediaTime(seconds: 2),
                                          dissolveSeconds: MediaTime(value: 1, timescale: 2))
        }
        let session = AssetExportSession(asset: edit.composition, settings: SpliceBench.settings())
        session.outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("splice-bench-scale-\(UUID()).mp4")
        session.outputFileType = .mp4
        session.videoComposition = edit.video
        session.audioMix = edit.audio
        try await timed("validate") { try await session.validate() }
        let graphs = try await timed("plan") { try session.filterGraphDescription() }
        var generator = AssetImageGenerator(asset: edit.composition)
        generator.videoComposition = edit.video
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let image = try await timed("first-frame") { try await generator.image(at: .zero).image }
        fields += ["graph-chars=\(graphs.utf8.count)", "picture=\(image.width)x\(image.height)",
                   "duration=\(format(edit.composition.duration.seconds, 1))s", "rss-peak=\(format(peakResidentMiB()))"]
        return fields.joined(separator: " ")
    }

    /// CPU seconds used so far by every thread of the process (`CLOCK_PROCESS_CPUTIME_ID`).
    static func cpuSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The process's resident memory now (`VmRSS` of `/proc/self/status`), MiB; 0 where it cannot be read.
    static func residentMiB() -> Double { statusField("VmRSS") }

    /// The process's peak resident memory so far (`VmHWM`), MiB; 0 where it cannot be read.
    static func peakResidentMiB() -> Double { statusField("VmHWM") }

    private static func statusField(_ name: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
            return kilobytes / 1024
        }
        return 0
    }

    static func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
