import Foundation
import SpliceTestSupport
import Testing

/// `splice frame` checks its output folder before any work (docs/cli.md: exit 1, the cause named), as export does.
@Suite("frame output folder")
struct FrameOutputFolderTests {
    @Test func missingFolderIsRefusedBeforeAnyWork() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let example = Fixture.example("canonical-edit.json").path
        let run = try await SpliceTool.run(["frame", example, "--at", "3.5s", "-o", "missing-dir/x.png"], in: scratch.url)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("splice: cannot write missing-dir/x.png: the folder "), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("/missing-dir does not exist\n"), "\(run.stderr)")
        #expect(scratch.contents.isEmpty)
        // Before any work: even a document that does not exist is not read first.
        let unread = try await SpliceTool.run(["frame", "nowhere.json", "--at", "1s", "-o", "missing-dir/x.png"], in: scratch.url)
        #expect(unread.status == 1)
        #expect(unread.stderr.hasPrefix("splice: cannot write missing-dir/x.png: the folder "), "\(unread.stderr)")
    }

    @Test func fileInPlaceOfTheFolderIsNamed() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("notes", "a file, not a folder")
        let run = try await SpliceTool.run(["frame", "nowhere.json", "--at", "1s", "-o", "notes/x.png"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.hasSuffix("/notes does not exist\n"), "\(run.stderr)")
    }
}
