import Foundation
import SpliceTestSupport
import Testing
@testable import Export

/// A segmented export's folders named for what they are when they fail: the parts folder a plan asks for, and the
/// hidden work folder of a concurrent segments export (never "its part").
@Suite("Segmented export: folder errors")
struct SegmentFolderErrorTests {
    @Test("a parts folder under a regular file: a typed error naming the folder and the cause, before anything is rendered")
    func partsFolderThatCannotBeMade() async throws {
        let scratch = try ScratchDirectory("segment-parts-folder")
        defer { scratch.remove() }
        let export = try await SegmentedExportTests.loadExport(ExportSettings(video: VideoSettings(codec: .ffv1), audio: nil))
        let file = try scratch.write("file", "a regular file")
        let parts = file.appendingPathComponent("parts")
        #expect(throws: ExportError.outputNotWritable(parts, reason: "Not a directory")) {
            try export.makePlan(segmentCount: 2, fileType: .mov, documentPath: scratch.file("edit.json").path, partsDirectory: parts)
        }
        #expect(scratch.contents == ["file"])
    }

    @Test("a concurrent segments export's errors name the output; a file of its work folder is its part, the folder itself its work folder")
    func workFolderErrorsNameTheOutput() {
        let output = URL(fileURLWithPath: "/videos/out.mp4")
        let work = URL(fileURLWithPath: "/videos/.splice-segments-0A1B")
        #expect(AssetExportSession.naming(output, in: ExportError.outputNotWritable(work, reason: "Not a directory"), partsIn: work)
                as? ExportError == .outputNotWritable(output, reason: "Not a directory (in its work folder .splice-segments-0A1B)"))
        #expect(AssetExportSession.naming(output, in: ExportError.writeFailed(work.appendingPathComponent("part-0001.mp4"),
                                                                              reason: "the disk is full"), partsIn: work)
                as? ExportError == .writeFailed(output, reason: "the disk is full (writing its part part-0001.mp4)"))
        #expect(AssetExportSession.naming(output, in: ExportError.outputNotWritable(output, reason: "permission denied"), partsIn: work)
                as? ExportError == .outputNotWritable(output, reason: "permission denied"), "an error naming another file is kept")
    }
}
