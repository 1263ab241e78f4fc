import SpliceFFmpeg
import Foundation
import Testing
import Splice
import SpliceTestSupport

extension Reliability {
    /// Faults while exporting: a full disk, the output directory removed or made unwritable, an input deleted (one
    /// cut short: ``TruncatedSourceTests``), an encoder that rejects its settings. Each gives a typed error, removes
    /// the temporary file, and leaves the file already at `outputURL` untouched.
    @Suite("Faults while exporting: typed errors, no temporary file, the existing file untouched")
    struct ExportFaultTests {
        static var precious: Data { Data("precious: an earlier export that must survive".utf8) }

        /// A session exporting the first `seconds` of clipA (or `composition`) to `output`, where a precious file already
        /// lies and may be replaced only by a complete export.
        static func session(_ composition: MutableComposition, output: URL, settings: ExportSettings = FastSettings.make()) throws -> AssetExportSession {
            try precious.write(to: output)
            let session = AssetExportSession(asset: composition, settings: settings)
            session.outputURL = output
            session.overwritesExistingFile = true
            return session
        }

        /// Settings that write a lot (CRF 8) so a small disk fills quickly.
        static let largeOutput = ExportSettings(video: VideoSettings(rateControl: .constantQuality(8), encoderPreset: "ultrafast"))

        // MARK: Disk full

        /// True when this process may mount a tmpfs (root on Linux; CI here runs as root).
        static let canMountTmpfs: Bool = {
            guard let probe = try? ScratchDirectory("tmpfs-probe") else { return false }
            defer { probe.remove() }
            guard mount("tmpfs", probe.url.path, "tmpfs", 0, "size=64k") == 0 else { return false }
            umount2(probe.url.path, Int32(MNT_DETACH))
            return true
        }()

        @Test(.enabled(if: canMountTmpfs, "needs permission to mount a tmpfs (root); the file-size-limit test covers the rest"))
        func aFullDiskIsATypedErrorAndLeavesTheExistingFile() async throws {
            let scratch = try ScratchDirectory("disk-full")
            defer { scratch.remove() }
            let disk = scratch.file("disk")
            try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: false)
            try #require(mount("tmpfs", disk.path, "tmpfs", 0, "size=256k") == 0, "mount: \(String(cString: strerror(errno)))")
            defer { umount2(disk.path, Int32(MNT_DETACH)) }
            let output = disk.appendingPathComponent("out.mp4")
            let session = try Self.session(try await Fixture.composition("canonical/clipA.mp4", seconds: 4), output: output,
                                           settings: Self.largeOutput)
            await #expect {
                try await session.export()
            } throws: { error in
                guard case ExportError.writeFailed(_, let reason) = error else { return false }
                return reason == "the disk is full"
            }
            #expect(session.status == .failed)
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["out.mp4"])
            #expect(try BinaryFile.read(output) == Self.precious)
        }

        /// The same fault without a tmpfs: the export runs in a child process whose file size is limited with
        /// `RLIMIT_FSIZE` (SIGXFSZ ignored, so the write fails with EFBIG instead of killing the process).
        @Test func aFileSizeLimitIsATypedErrorAndLeavesTheExistingFile() async throws {
            let scratch = try ScratchDirectory("fsize")
            defer { scratch.remove() }
            let result = try await onWorkerThread {
                try ChildTest.run(filter: "ExportFaultTests/fileSizeLimitChild", role: "fsize",
                                  environment: ["SPLICE_FSIZE_DIR": scratch.url.path], timeout: 120)
            }
            #expect(result.status == 0 && !result.timedOut, "child: \(result.output.suffix(3000))")
            let reports = result.reports
            #expect(reports["error"] == "writeFailed", "\(reports)")
            #expect(reports["reason"] == "the file is too large for this file system or limit", "\(reports)")
            #expect(reports["contents"] == "out.mp4", "\(reports)")
            #expect(try BinaryFile.read(scratch.file("out.mp4")) == Self.precious)
        }

        /// The same fault in a concurrent segments export: the error names the output asked for, not the hidden part
        /// that hit the limit (its name follows the reason), and the work folder is gone.
        @Test func aFileSizeLimitInConcurrentSegmentsNamesTheOutput() async throws {
            let scratch = try ScratchDirectory("fsize-segments")
            defer { scratch.remove() }
            let result = try await onWorkerThread {
                try ChildTest.run(filter: "ExportFaultTests/fileSizeLimitChild", role: "fsize",
                                  environment: ["SPLICE_FSIZE_DIR": scratch.url.path, "SPLICE_FSIZE_SEGMENTS": "2"], timeout: 120)
            }
            #expect(result.status == 0 && !result.timedOut, "child: \(result.output.suffix(3000))")
            let reports = result.reports
            #expect(reports["error"] == "writeFailed", "\(reports)")
            #expect(reports["url"] == scratch.file("out.mp4").path, "\(reports)")
            let reason = reports["reason"] ?? ""
            #expect(reason.wholeMatch(of: /the file is too large for this file system or limit \(writing its part part-000[01]\.mp4\)/) != nil,
                    "\(reports)")
            #expect(reports["contents"] == "out.mp4", "\(reports)")
            #expect(try BinaryFile.read(scratch.file("out.mp4")) == Self.precious)
        }

        @Test(.enabled(if: ChildTest.is("fsize")))
        func fileSizeLimitChild() async throws {
            let directory = try #require(ProcessInfo.processInfo.environment["SPLICE_FSIZE_DIR"])
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 300_000, rlim_max: 300_000)
            try #require(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0)
            let output = URL(fileURLWithPath: directory).appendingPathComponent("out.mp4")
            let session = try Self.session(try await Fixture.composition("canonical/clipA.mp4", seconds: 4), output: output,
                                           settings: Self.largeOutput)
            session.concurrentSegments = ProcessInfo.processInfo.environment["SPLICE_FSIZE_SEGMENTS"].flatMap { Int($0) }
            do {
                try await session.export()
                ChildTest.report("error", "none")
            } catch ExportError.writeFailed(let url, let reason) {
                ChildTest.report("error", "writeFailed")
                ChildTest.report("url", url.path)
                ChildTest.report("reason", reason)
            } catch {
                ChildTest.report("error", "\(ErrorKind.name(error)): \(error)")
            }
            ChildTest.report("contents", (try FileManager.default.contentsOfDirectory(atPath: directory)).sorted().joined(separator: ","))
        }

        // MARK: Output directory

        @Test func theOutputDirectoryRemovedMidExportIsATypedError() async throws {
            let scratch = try ScratchDirectory("dir-removed")
            defer { scratch.remove() }
            let directory = scratch.file("out")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            let session = try Self.session(try await Fixture.composition("canonical/clipA.mp4", seconds: 4),
                                           output: directory.appendingPathComponent("out.mp4"))
            let task = Task { try await session.export() }
            let removed = await whenProgress(of: session, passes: 0.05) {
                (try? FileManager.default.removeItem(at: directory)) != nil
            }
            #expect(removed == true, "the export ended before its directory could be removed")
            await #expect {
                try await task.value
            } throws: { error in
                guard case ExportError.writeFailed(let url, let reason) = error else { return false }
                return url.lastPathComponent == "out.mp4" && reason.contains("the file or its directory does not exist")
            }
            #expect(!FileManager.default.fileExists(atPath: directory.path), "the removed directory must not come back")
            #expect(scratch.contents.isEmpty)
        }

        /// True when `chattr +i` works here (ext4 and friends, as root): an immutable directory refuses new names even
        /// to root, who ignores permission bits.
        static let canMakeImmutable: Bool = {
            guard let probe = try? ScratchDirectory("chattr-probe") else { return false }
            defer { _ = FileFlags.chattr("-i", probe.url); probe.remove() }
            return FileFlags.chattr("+i", probe.url)
        }()

        /// The directory made unwritable mid-export (`chattr +i`): the finished file cannot be moved into place, which
        /// is a typed error, and the existing file is untouched. The temporary file is unnamed (`O_TMPFILE`, which
        /// ext4 supports), so nothing is left behind even though the directory refuses every change.
        @Test(.enabled(if: canMakeImmutable, "needs chattr +i (root on ext4)"))
        func theOutputDirectoryMadeUnwritableMidExportIsATypedError() async throws {
            let scratch = try ScratchDirectory("dir-readonly")
            defer { _ = FileFlags.chattr("-i", scratch.url); scratch.remove() }
            let output = scratch.file("out.mp4")
            let session = try Self.session(try await Fixture.composition("canonical/clipA.mp4", seconds: 4), output: output)
            let task = Task { try await session.export() }
            let frozen = await whenProgress(of: session, passes: 0.05) { FileFlags.chattr("+i", scratch.url) }
            #expect(frozen == true, "the export ended before its directory could be made immutable")
            await #expect {
                try await task.value
            } throws: { error in
                guard case ExportError.writeFailed(let url, let reason) = error else { return false }
                return url == output && reason.contains("permission denied")
            }
            #expect(FileFlags.chattr("-i", scratch.url))
            #expect(try BinaryFile.read(output) == Self.precious)
            #expect(scratch.contents == ["out.mp4"], "left behind: \(scratch.contents)")
        }

        // MARK: Inputs

        /// Copies of fixtures in a scratch directory, so a test can delete or truncate them.
        static func copies(_ paths: [String], in scratch: ScratchDirectory) throws -> [URL] {
            try paths.map { path in
                let copy = scratch.file(URL(fileURLWithPath: path).lastPathComponent)
                try FileManager.default.copyItem(at: Fixture.url(path), to: copy)
                return copy
            }
        }

        @Test func anInputDeletedMidExportIsATypedErrorNamingIt() async throws {
            let scratch = try ScratchDirectory("input-deleted")
            defer { scratch.remove() }
            let inputs = try Self.copies(["canonical/clipA.mp4", "canonical/clipB.mp4"], in: scratch)
            let clipA = try await Asset.load(from: inputs[0]), clipB = try await Asset.load(from: inputs[1])
            var composition = MutableComposition()
            try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 4)), of: clipA, at: .zero)
            try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: clipB, at: MediaTime(seconds: 4))
            let outputs = try ScratchDirectory("input-deleted-out")
            defer { outputs.remove() }
            let session = try Self.session(composition, output: outputs.file("out.mp4"),
                                           settings: ExportSettings(video: VideoSettings(encoderPreset: "medium")))
            let task = Task { try await session.export() }
            let removed = await whenProgress(of: session, passes: 0.05) {
                (try? FileManager.default.removeItem(at: inputs[1])) != nil
            }
            #expect(removed == true, "the export ended before its input could be removed")
            await #expect {
                try await task.value
            } throws: { error in
                guard case ExportError.sourceUnreadable(let url, let reason) = error else { return false }
                return url == inputs[1] && reason.contains("no such file")
            }
            #expect(outputs.contents == ["out.mp4"])
            #expect(try BinaryFile.read(outputs.file("out.mp4")) == Self.precious)
        }

        // MARK: Encoder

        @Test(arguments: [
            ("an x264 preset it does not know", ExportSettings(video: VideoSettings(encoderPreset: "warp-speed")), "warp-speed"),
            ("an AAC sample rate it does not support", ExportSettings(video: VideoSettings(encoderPreset: "ultrafast"),
                                                                      audio: AudioSettings(sampleRate: 7)), "sampleRate: 7"),
        ])
        func anEncoderRejectingItsSettingsIsATypedError(_ label: String, _ settings: ExportSettings, _ named: String) async throws {
            let scratch = try ScratchDirectory("encoder")
            defer { scratch.remove() }
            let output = scratch.file("out.mp4")
            let session = try Self.session(try await Fixture.composition("canonical/clipA.mp4", seconds: 1), output: output, settings: settings)
            await #expect {
                try await session.export()
            } throws: { error in
                guard case ExportError.unsupportedSettings(let reason) = error else { return false }
                return reason.contains("rejected") && reason.contains(named)
            }
            #expect(scratch.contents == ["out.mp4"], "\(label): the temporary file must be gone")
            #expect(try BinaryFile.read(output) == Self.precious)
        }
    }
}
