import Foundation
import Synchronization
import Testing
import Splice
import SpliceTestSupport

/// "Nothing lost": existing files, failures and cancellation never leave a partial file or touch an existing one.
@Suite("Export safety: existing files, failures, cancellation, limits, progress")
struct ExportSafetyTests {
    static func clipComposition(seconds: Int64 = 4) async throws -> MutableComposition {
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: seconds)), of: clip, at: .zero)
        return composition
    }

    static var fastSettings: ExportSettings {
        ExportSettings(video: VideoSettings(encoderPreset: "ultrafast"))
    }

    @Test func anExistingFileIsAnErrorAndStaysUntouched() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.file("out.mp4")
        try Data("precious".utf8).write(to: output)
        let session = AssetExportSession(asset: try await Self.clipComposition(), settings: Self.fastSettings)
        session.outputURL = output
        await #expect(throws: ExportError.outputFileExists(output)) { try await session.export() }
        #expect(session.status == .failed)
        #expect(try BinaryFile.read(output) == Data("precious".utf8))
        #expect(scratch.contents == ["out.mp4"])
    }

    @Test func replacingIsOptIn() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let output = scratch.file("out.mp4")
        try Data("old".utf8).write(to: output)
        let session = AssetExportSession(asset: try await Self.clipComposition(seconds: 1), settings: Self.fastSettings)
        session.outputURL = output
        session.overwritesExistingFile = true
        try await session.export()
        let asset = try await Asset.load(from: output)
        #expect(asset.tracks(withMediaType: .video).first?.video?.frameCount == 30)
        #expect(scratch.contents == ["out.mp4"])
    }

    @Test func aMissingDirectoryIsReportedBeforeWork() async throws {
        let output = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/out.mp4")
        let session = AssetExportSession(asset: try await Self.clipComposition(seconds: 1), settings: Self.fastSettings)
        session.outputURL = output
        await #expect {
            try await session.export()
        } throws: { error in
            guard case ExportError.outputNotWritable(let url, let reason) = error else { return false }
            return url == output && reason.contains("does not exist")
        }
    }

    @Test func cancelExportStopsPromptlyAndLeavesNothing() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.clipComposition(), settings: ExportSettings(
            video: VideoSettings(encoderPreset: "medium")))
        session.outputURL = scratch.file("out.mp4")
        let task = Task { try await session.export() }
        // Cancelled once rendering has visibly started.
        let progressAtCancel = await whenProgress(of: session, passes: 0.05) {
            session.cancelExport()
            return session.progress
        }
        #expect(progressAtCancel != nil, "the export ended before it could be cancelled")
        await #expect(throws: CancellationError.self) { try await task.value }
        // Prompt in work done, not in wall time: beside the whole parallel suite on two cores the awaiting task can
        // resume seconds late, but the renderer must stop within a few frames of the cancel (progress is published by
        // the render thread itself). Milliseconds of wall time are asserted by the 100-moment sweep in
        // ReliabilityTests, which runs alone in a child process.
        #expect(session.progress - (progressAtCancel ?? 1) < 0.1, "rendered on to \(session.progress)")
        #expect(session.status == .cancelled)
        #expect(session.error == nil)
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test func taskCancellationWorksLikeCancelExport() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.clipComposition(), settings: ExportSettings(
            video: VideoSettings(encoderPreset: "veryslow")))
        session.outputURL = scratch.file("out.mp4")
        let task = Task { try await session.export() }
        let cancelled = await whenProgress(of: session, passes: 0.05) { task.cancel(); return true }
        #expect(cancelled != nil, "the export ended before it could be cancelled")
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(session.status == .cancelled)
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test func progressIsMonotonicAndEndsAtOne() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.clipComposition(seconds: 2), settings: Self.fastSettings)
        session.outputURL = scratch.file("out.mp4")
        let updates = session.progressUpdates
        let collector = Task { () -> [Double] in
            var values: [Double] = []
            for await value in updates { values.append(value) }
            return values
        }
        try await session.export()
        let values = await collector.value
        #expect(values.last == 1)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "\(values)")
        #expect(values.allSatisfy { (0...1).contains($0) })
    }

    @Test func fileLengthLimitGivesAShorterPlayableFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = AssetExportSession(asset: try await Self.clipComposition(), settings: ExportSettings(
            video: VideoSettings(rateControl: .constantQuality(10), encoderPreset: "ultrafast")))
        let output = scratch.file("out.mp4")
        session.outputURL = output
        let limit: Int64 = 400_000
        session.fileLengthLimit = limit
        try await session.export()
        #expect(session.status == .completed)
        #expect(session.fileLengthLimitReached)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int64)
        #expect(size <= limit, "\(size) bytes > limit \(limit)")
        let asset = try await Asset.load(from: output)
        let frames = try #require(asset.tracks(withMediaType: .video).first?.video?.frameCount)
        #expect(frames > 0 && frames < 120, "\(frames) frames")
    }

    @Test func anInvalidVideoCompositionListsEveryProblemAndWritesNothing() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let composition = try await Self.clipComposition(seconds: 2)
        var video = MutableVideoComposition(propertiesOf: composition)
        video.renderSize = Size(width: 641, height: 360)
        video.instructions[0].layerInstructions[0].trackID = 99
        let session = AssetExportSession(asset: composition, settings: Self.fastSettings)
        session.outputURL = scratch.file("out.mp4")
        session.videoComposition = video
        await #expect {
            try await session.export()
        } throws: { error in
            guard case ExportError.invalidVideoComposition(let issues) = error else { return false }
            return issues.count >= 2 && issues.contains { $0.description.contains("641") } && issues.contains { $0.description.contains("99") }
        }
        #expect(scratch.contents.isEmpty)
    }

    @Test func unknownPresetNamesAreTypedErrors() async throws {
        #expect(throws: ExportError.self) {
            _ = try AssetExportSession(asset: MutableComposition(), presetName: "AVAssetExportPreset1280x72")
        }
        let session = try AssetExportSession(asset: MutableComposition(), presetName: "AVAssetExportPreset1280x720")
        #expect(session.preset == .preset1280x720)
    }
}
