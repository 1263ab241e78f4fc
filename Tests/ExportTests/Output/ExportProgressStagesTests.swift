import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Progress is 1.0 only when the file is complete: the encoders' flush and the trailer (with faststart, the index
/// moved to the front) are counted after the last frame, and only the finished, named file is 1.0.
@Suite("Export progress stages")
struct ExportProgressStagesTests {
    /// Every value the job reports, each with whether the output file existed then.
    final class Recorder: Sendable {
        let values = Locked<[(value: Double, fileExists: Bool)]>([])
    }

    static func composition() async throws -> MutableComposition {
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: clip, at: .zero)
        return composition
    }

    @Test(arguments: [false, true])
    func theJobNeverReportsOneAndCountsTheFlushAndTheTrailer(passthrough: Bool) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.file("out.mp4")
        var request = ExportRequest()
        request.outputURL = output
        let settings: ExportSettings? = passthrough ? nil : ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(30), encoderPreset: "veryfast"))
        let plan = try ExportPlanner(
            composition: try await Self.composition(), settings: settings, preset: passthrough ? .passthrough : nil,
            request: request
        ).makePlan()
        let recorder = Recorder()
        _ = try ExportJob(plan: plan).run(cancellation: CancellationFlag()) { value in
            let exists = FileManager.default.fileExists(atPath: output.path)
            recorder.values.withLock { $0.append((value, exists)) }
        }
        let values = recorder.values.withLock { $0 }
        #expect(FileManager.default.fileExists(atPath: output.path))
        #expect(values.allSatisfy { $0.value < 1 }, "the job reported 1.0 before the file was named: \(values.map(\.value))")
        #expect(values.allSatisfy { !$0.fileExists }, "progress reported after the file appeared")
        #expect(values.last?.value == ExportProgress.finished)
        // The flush stage is reported between the last frame (0.9) and the trailer.
        #expect(values.contains { $0.value == ExportProgress.flushed })
        #expect(values.filter { $0.value <= 0.9 }.count == values.count - 2)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.value <= $1.value })
    }

    @Test func theSessionReachesOneOnlyWithTheFileInPlace() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.file("out.mp4")
        let session = AssetExportSession(asset: try await Self.composition(), settings: ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(30), encoderPreset: "medium")))
        session.outputURL = output
        let updates = session.progressUpdates
        let collector = Task { () -> [(Double, Bool)] in
            var seen: [(Double, Bool)] = []
            for await value in updates { seen.append((value, FileManager.default.fileExists(atPath: output.path))) }
            return seen
        }
        try await session.export()
        let seen = await collector.value
        #expect(seen.last?.0 == 1)
        for (value, exists) in seen where value >= 1 { #expect(exists, "progress 1.0 before the file was complete") }
    }
}
