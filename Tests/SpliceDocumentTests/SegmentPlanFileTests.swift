import Export
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing

/// How `SegmentPlanFile.read(from:)` reports a plan file it cannot use: each case a ``Export/SegmentError/invalidPlan(_:)``
/// naming the file and the cause.
@Suite struct SegmentPlanFileTests {
    @Test func anEmptyMissingOrFolderPlanIsAnInvalidPlanNamingTheFileAndTheCause() throws {
        let scratch = try ScratchDirectory("plan-file")
        defer { scratch.remove() }
        let empty = try scratch.write("empty.json", "")
        #expect(throws: SegmentError.invalidPlan("\(empty.path):1:1: JSON syntax error: the document is empty: expected a JSON object")) {
            try SegmentPlanFile.read(from: empty)
        }
        let missing = scratch.file("missing.json")
        #expect(throws: SegmentError.invalidPlan(
            "\(missing.path) cannot be read: The operation could not be completed. The file doesn’t exist.")) {
            try SegmentPlanFile.read(from: missing)
        }
        #expect(throws: SegmentError.invalidPlan(
            "\(scratch.url.path) cannot be read: The operation could not be completed. (NSCocoaErrorDomain error 256.)")) {
            try SegmentPlanFile.read(from: scratch.url)
        }
    }
}
