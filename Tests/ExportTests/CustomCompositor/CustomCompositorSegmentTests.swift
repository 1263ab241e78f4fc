import Foundation
import Splice
import SpliceFFmpeg
import SpliceTesting
import SpliceTestSupport
import Testing
internal import CMedia

/// A custom compositor with segmented export: ``AssetExportSession/concurrentSegments`` renders every part through
/// the compositor in this process (frame for frame the single export's, lossless); a segment plan for other
/// processes cannot carry the Swift value, and rendering its segment without it is a typed error.
@Suite("Custom compositor with segments", .serialized)
struct CustomCompositorSegmentTests {
    typealias C = CustomCompositorTests

    /// Two concurrent segments against the single export, FFV1: bit-identical pictures, every composition time asked
    /// once (each part at its own times, not from zero), and a compositor that cannot render concurrently never
    /// called twice at once although the parts run together.
    @Test func concurrentSegmentsGiveTheSingleExportsFrames() async throws {
        let scratch = try ScratchDirectory("compositor-segments")
        defer { scratch.remove() }
        let (composition, video) = try await C.edit(C.quadrants(), in: scratch)
        let ffv1 = VideoSettings(codec: .ffv1)
        let times = (0..<60).map { C.frameDuration * Int64($0) }

        let singleCompositor = TestCompositors.Counting(concurrent: false, frameDuration: C.frameDuration, overlapDeadline: 0)
        let single = scratch.file("single.mov")
        try await C.session(composition, video, ffv1, compositor: singleCompositor, to: single).export()

        let partsCompositor = TestCompositors.Counting(concurrent: false, frameDuration: C.frameDuration, overlapDeadline: 0)
        let segmented = scratch.file("segmented.mov")
        let session = C.session(composition, video, ffv1, compositor: partsCompositor, to: segmented)
        session.concurrentSegments = 2
        try await session.export()
        #expect(session.status == .completed)

        #expect(Set(partsCompositor.requestedTimes) == Set(times), "times asked: \(partsCompositor.requestedTimes.sorted())")
        #expect(partsCompositor.requestedTimes.count == 60)
        #expect(partsCompositor.maximumInFlight == 1, "a serial compositor was called \(partsCompositor.maximumInFlight) times at once")
        let singlePackets = try SegmentedExportTests.packets(of: single, type: AVMEDIA_TYPE_VIDEO)
        let segmentedPackets = try SegmentedExportTests.packets(of: segmented, type: AVMEDIA_TYPE_VIDEO)
        #expect(singlePackets.count == 60 && segmentedPackets.count == 60, "\(singlePackets.count), \(segmentedPackets.count)")
        let differing = zip(singlePackets, segmentedPackets).enumerated().filter { $0.element.0.data != $0.element.1.data }.map(\.offset)
        #expect(differing.isEmpty, "frames differing from the single export: \(differing)")
        // The pictures are the compositor's (grey 4 × frame index), not the source's quadrants.
        let frames = try await Readback.frames(of: segmented, at: [times[10], times[45]])
        for (frame, index) in zip(frames, [10, 45]) {
            let level = Double(index * 4)
            let actual = frame.meanColor(in: Rect(x: 100, y: 100, width: 20, height: 20))
            #expect(colorMatches(actual, (level, level, level), tolerance: 1.5), "frame \(index): \(actual), wanted \(level)")
        }
    }

    /// A plan made with a compositor names its type; a worker without it (as `splice render-segment` or a Slurm
    /// array task, which load the plan and the document) is refused with a typed error, nothing written.
    @Test func aPlanForOtherProcessesCannotCarryTheCompositor() async throws {
        let scratch = try ScratchDirectory("compositor-segments-plan")
        defer { scratch.remove() }
        let (composition, video) = try await C.edit(C.quadrants(), in: scratch)
        var export = SegmentedExport(composition: composition, videoComposition: video, audioMix: nil,
                                     settings: ExportSettings(video: VideoSettings(codec: .ffv1), audio: nil))
        export.customVideoCompositor = TestCompositors.Inverting()
        let parts = scratch.url.appendingPathComponent("parts", isDirectory: true)
        let plan = try export.makePlan(segmentCount: 2, fileType: .mov, documentPath: "/nonexistent/edit.json", partsDirectory: parts)
        #expect(plan.customCompositor?.hasSuffix("TestCompositors.Inverting") == true, "\(String(describing: plan.customCompositor))")
        // Through JSON, as a plan file travels.
        let decoded = try JSONDecoder().decode(SegmentPlan.self, from: JSONEncoder().encode(plan))
        #expect(decoded == plan)

        var worker = export
        worker.customVideoCompositor = nil
        await #expect(throws: SegmentError.customCompositorRequired(try #require(plan.customCompositor))) {
            try await worker.renderSegment(0, of: decoded)
        }
        #expect(!FileManager.default.fileExists(atPath: decoded.partURL(0).path))
        // A plan made without a compositor has no such field in its JSON (plan files stay as they were).
        export.customVideoCompositor = nil
        let plain = try export.makePlan(segmentCount: 2, fileType: .mov, documentPath: "/nonexistent/edit.json", partsDirectory: parts)
        let json = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        #expect(plain.customCompositor == nil && !json.contains("customCompositor"), "\(json)")
        // Such a plan renders as before.
        #expect(try await export.renderSegment(1, of: plain))
    }
}
