import Export
import Foundation
import SpliceTestSupport
import Testing

/// The loudness pass's work folder: removed when done; one left by a killed process is removed by the next one made
/// in the same place; one a live process holds is never touched.
@Suite struct WorkFolderTests {
    static let prefix = ".splice-loudness"

    static func names(in scratch: ScratchDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
    }

    @Test func abandonedFoldersGoAndHeldOnesStay() throws {
        let scratch = try ScratchDirectory("work-folder")
        defer { scratch.remove() }
        // What a killed process leaves: a folder (with a file in it) that no process holds.
        let abandoned = scratch.file("\(Self.prefix)-ABANDONED")
        try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: false)
        _ = FileManager.default.createFile(atPath: abandoned.appendingPathComponent("mix.mkv").path, contents: Data([1, 2, 3]))
        // Not a work folder of this kind: left alone.
        try FileManager.default.createDirectory(at: scratch.file(".splice-other-1"), withIntermediateDirectories: false)
        _ = FileManager.default.createFile(atPath: scratch.file("\(Self.prefix)-file").path, contents: Data())

        let first = try WorkFolder(in: scratch.url, prefix: Self.prefix)
        #expect(first.url.lastPathComponent.hasPrefix("\(Self.prefix)-"))
        #expect(try Self.names(in: scratch) == [".splice-other-1", first.url.lastPathComponent, "\(Self.prefix)-file"].sorted())
        // A second one in the same place (another export at the same time) leaves the first, which is held.
        _ = FileManager.default.createFile(atPath: first.url.appendingPathComponent("mix.mkv").path, contents: Data([1]))
        let second = try WorkFolder(in: scratch.url, prefix: Self.prefix)
        #expect(FileManager.default.fileExists(atPath: first.url.appendingPathComponent("mix.mkv").path))
        #expect(try Self.names(in: scratch).filter { $0.hasPrefix("\(Self.prefix)-") && $0 != "\(Self.prefix)-file" }.count == 2)
        first.remove()
        second.remove()
        second.remove()  // idempotent
        #expect(try Self.names(in: scratch) == [".splice-other-1", "\(Self.prefix)-file"].sorted())
    }

    @Test func aPlaceThatCannotTakeAFolderIsATypedError() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
        #expect {
            _ = try WorkFolder(in: missing, prefix: Self.prefix)
        } throws: { error in
            guard case ExportError.outputNotWritable(let url, let reason) = error else { return false }
            return url == missing && reason.contains("cannot be made")
        }
    }
}
