import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// The temporary file an export writes has no name (`O_TMPFILE`) where the file system allows it, so nothing is
/// left behind even when the output directory turns read-only mid-export; elsewhere it is a named `.partial` file.
@Suite("Export safety: the unnamed temporary file")
struct ExportTemporaryFileTests {
    /// True when the scratch directory's file system gives unnamed temporary files (ext4, XFS, Btrfs, tmpfs).
    static let unnamedFilesWork: Bool = {
        guard let scratch = try? ScratchDirectory() else { return false }
        defer { scratch.remove() }
        return TemporaryOutputFile(for: scratch.file("probe.mp4")).isUnnamed
    }()

    /// Makes `directory` refuse new and removed names: `chattr +i` for root (who ignores permission bits; needs
    /// ext4 or similar), mode 0555 otherwise. False when neither works here.
    static func makeReadOnly(_ directory: URL) -> Bool {
        if geteuid() == 0 { return FileFlags.chattr("+i", directory) }
        return chmod(directory.path, 0o555) == 0
    }

    /// Undoes ``makeReadOnly(_:)``.
    static func makeWritable(_ directory: URL) {
        if geteuid() == 0 { _ = FileFlags.chattr("-i", directory) } else { chmod(directory.path, 0o755) }
    }

    static let canMakeReadOnly: Bool = {
        guard let probe = try? ScratchDirectory() else { return false }
        defer { makeWritable(probe.url); probe.remove() }
        guard makeReadOnly(probe.url) else { return false }
        // Root with a directory that only looks read-only would still write: check that it really refuses.
        return !FileManager.default.createFile(atPath: probe.file("x").path, contents: Data())
    }()

    static func slowExport(to output: URL) async throws -> AssetExportSession {
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 4)), of: clip, at: .zero)
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "veryslow")))
        session.outputURL = output
        return session
    }

    @Test(.enabled(if: unnamedFilesWork, "the scratch file system has no O_TMPFILE"))
    func theTemporaryFileHasNoNameWhileTheExportRuns() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = try await Self.slowExport(to: scratch.file("out.mp4"))
        let task = Task { try await session.export() }
        let namedWhileExporting = await whenProgress(of: session, passes: 0.05) {
            defer { session.cancelExport() }
            return scratch.contents
        }
        #expect(namedWhileExporting == [], "named while exporting: \(String(describing: namedWhileExporting))")
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test(.enabled(if: unnamedFilesWork && canMakeReadOnly, "needs O_TMPFILE and a way to make a directory read-only"))
    func cancellingAfterTheDirectoryTurnedReadOnlyLeavesNothing() async throws {
        let scratch = try ScratchDirectory()
        defer { Self.makeWritable(scratch.url); scratch.remove() }
        let session = try await Self.slowExport(to: scratch.file("out.mp4"))
        let task = Task { try await session.export() }
        let madeReadOnly = await whenProgress(of: session, passes: 0.05) {
            defer { session.cancelExport() }
            return Self.makeReadOnly(scratch.url)
        }
        #expect(madeReadOnly == true, "the export ended before the directory could be made read-only")
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(session.status == .cancelled)
        Self.makeWritable(scratch.url)
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test(.enabled(if: unnamedFilesWork && canMakeReadOnly, "needs O_TMPFILE and a way to make a directory read-only"))
    func aPassthroughIntoADirectoryTurnedReadOnlyFailsCleanly() async throws {
        // The directory is read-only before the export starts: not even an unnamed file can be made there (an
        // immutable directory refuses O_TMPFILE too), so the named fallback is tried and refused — a typed error
        // naming the output or its directory, and nothing written.
        let scratch = try ScratchDirectory()
        defer { Self.makeWritable(scratch.url); scratch.remove() }
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: clip, at: .zero)
        let output = scratch.file("out.mp4")
        #expect(Self.makeReadOnly(scratch.url))
        await #expect {
            try await PassthroughTests.export(composition, to: output)
        } throws: { error in
            switch error {
            case ExportError.writeFailed(let url, _), ExportError.outputNotWritable(let url, _):
                return url == output || url == scratch.url
            default:
                return false
            }
        }
        Self.makeWritable(scratch.url)
        #expect(scratch.contents.isEmpty, "left behind: \(scratch.contents)")
    }

    @Test func aNamedTemporaryFileIsUsedWhereUnnamedOnesAreNotPossible() throws {
        // /proc is not a file system that can hold files: O_TMPFILE fails there, and the fallback names a hidden
        // `.partial` file beside the target.
        let temporary = TemporaryOutputFile(for: URL(fileURLWithPath: "/proc/out.mp4"))
        #expect(!temporary.isUnnamed)
        #expect(temporary.path.hasPrefix("/proc/.out.mp4.splice-") && temporary.path.hasSuffix(".partial"), "\(temporary.path)")
    }

    @Test(.enabled(if: unnamedFilesWork, "the scratch file system has no O_TMPFILE"))
    func anUnnamedFileIsLinkedInPlaceOnlyWhenCommitted() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let target = scratch.file("out.bin")
        let temporary = TemporaryOutputFile(for: target)
        #expect(temporary.isUnnamed)
        try Data("complete".utf8).write(to: URL(fileURLWithPath: temporary.path))
        #expect(scratch.contents.isEmpty)
        try temporary.commit(to: target, replacing: false)
        #expect(try BinaryFile.read(target) == Data("complete".utf8))
        #expect(scratch.contents == ["out.bin"])

        // Not replacing: an existing file is an error and stays; replacing: it is swapped atomically.
        let second = TemporaryOutputFile(for: target)
        try Data("newer".utf8).write(to: URL(fileURLWithPath: second.path))
        #expect(throws: ExportError.outputFileExists(target)) { try second.commit(to: target, replacing: false) }
        #expect(try BinaryFile.read(target) == Data("complete".utf8))
        let third = TemporaryOutputFile(for: target)
        try Data("newer".utf8).write(to: URL(fileURLWithPath: third.path))
        try third.commit(to: target, replacing: true)
        #expect(try BinaryFile.read(target) == Data("newer".utf8))
        #expect(scratch.contents == ["out.bin"])
    }
}
