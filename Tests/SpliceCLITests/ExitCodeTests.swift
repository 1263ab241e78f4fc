import Foundation
import SpliceTestSupport
import Testing

/// Each command's refusals exit with the code docs/cli.md's table gives (1 invalid input, 2 usage), print the
/// cause, and come before any work: nothing rendered, nothing written, no folder made.
@Suite("exit codes")
struct ExitCodeTests {
    /// A 2 s short-form document over clipA at 160 × 90 with fast settings.
    static let small = """
        { "version": 1, "renderSize": [160, 90], "clips": [ { "source": "clipA.mp4", "duration": "2s" } ], "export": \(fastExport) }
        """

    /// A scratch folder with `edit.json` (``small``) and a two-segment plan of it, `plan.json`, parts in `plan.parts`.
    static func planned() async throws -> ScratchDirectory {
        let scratch = try TestDocument.folder()
        try scratch.write("edit.json", small)
        let plan = try await SpliceTool.run(["plan", "edit.json", "--segments", "2", "-o", "plan.json"], in: scratch.url)
        #expect(plan.status == 0, "\(plan.stderr)")
        return scratch
    }

    @Test(arguments: [["--index", "7"], ["--index=-1"], ["--index", "2"]])
    func segmentIndexOutsideThePlanIsAUsageError(index: [String]) async throws {
        let scratch = try await Self.planned()
        defer { scratch.remove() }
        let run = try await SpliceTool.run(["render-segment", "plan.json"] + index, in: scratch.url)
        #expect(run.status == 2, "\(run.stderr)")
        let given = index.count == 2 ? index[1] : "-1"
        #expect(run.stderr == "splice render-segment: --index \(given) is not a segment of plan.json: it has 2 (0...1)\n"
                + "Run 'splice render-segment --help' for usage.\n")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.file("plan.parts").path)) ?? [] == [])
    }

    @Test func smartWithSegmentsIsRefusedBeforeAnyWork() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.small)
        let before = scratch.contents
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4", "--smart", "--segments", "2", "--progress", "none"],
                                           in: scratch.url)
        #expect(run.status == 1, "\(run.stderr)")
        // The count came from --segments, not the document: the option is named.
        #expect(run.stderr == "splice: cannot export edit.json: --segments 2: unsupported export settings: concurrentSegments 2 "
                + "cannot be combined with smartRendering; set one of them only\n")
        #expect(scratch.contents == before, "nothing written: \(scratch.contents)")

        let json = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4", "--smart", "--segments", "2", "--progress", "json"],
                                            in: scratch.url)
        #expect(json.status == 1)
        #expect(json.stdout.hasPrefix(#"{"event":"failed","exitCode":1,"#), "\(json.stdout)")
        #expect(!json.stdout.contains("started"), "refused before the export started: \(json.stdout)")
    }

    @Test func frameTimeOutsideTheCompositionIsAUsageError() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.small)
        for time in ["2s", "-1s"] {
            let run = try await SpliceTool.run(["frame", "edit.json", "--at", time, "-o", "f.png"], in: scratch.url)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr == "splice: --at \(time): the composition runs from 0 to 2.000 s; pick a time inside it\n")
        }
        #expect(!scratch.contents.contains("f.png"))
    }

    @Test func joinChecksItsOutputBeforeRenderingTheAudio() async throws {
        let scratch = try await Self.planned()
        defer { scratch.remove() }
        try scratch.write("out.mp4", "precious")
        let existing = try await SpliceTool.run(["join", "plan.json", "-o", "out.mp4"], in: scratch.url)
        #expect(existing.status == 1, "\(existing.stderr)")
        #expect(existing.stderr == "splice: out.mp4 already exists (use --overwrite to replace it)\n")
        #expect(try TextFile.read(scratch.file("out.mp4")) == "precious")

        let noFolder = try await SpliceTool.run(["join", "plan.json", "-o", "missing/out.mp4"], in: scratch.url)
        #expect(noFolder.status == 1, "\(noFolder.stderr)")
        #expect(noFolder.stderr == "splice: cannot write missing/out.mp4: the folder \(scratch.file("missing").path) does not exist\n")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.file("plan.parts").path)) ?? [] == [],
                "no audio rendered, no part")
    }

    /// `join` refuses an output that is a directory, a source of the edit or a file of the plan as `export` does,
    /// `--overwrite` or not, before the audio is rendered.
    @Test(arguments: [
        ("folder.mp4", "it is a directory"),
        ("clipA.mp4", "it is a source of the composition (track 1 reads it); write the export to another file"),
        ("plan.parts/part-0000.mp4", "it is a file of the segment plan (PART), which the join reads; write the joined file to another file"),
    ])
    func joinRefusesAnOutputThatIsADirectoryASourceOrAPart(output: String, reason: String) async throws {
        let scratch = try await Self.planned()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.file("folder.mp4"), withIntermediateDirectories: false)
        let part = try await SpliceTool.run(["render-segment", "plan.json", "--index", "0"], in: scratch.url)
        #expect(part.status == 0, "\(part.stderr)")
        let partPath = scratch.file("plan.parts/part-0000.mp4").path
        let partData = try BinaryFile.read(URL(fileURLWithPath: partPath))
        let run = try await SpliceTool.run(["join", "plan.json", "-o", output, "--overwrite"], in: scratch.url)
        #expect(run.status == 1, "\(run.stderr)")
        let expected = reason.replacingOccurrences(of: "PART", with: partPath)
        #expect(run.stderr == "splice join: cannot write \(scratch.file(output).path): \(expected)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("plan.parts").path) == ["part-0000.mp4"],
                "no audio rendered")
        #expect(try BinaryFile.read(URL(fileURLWithPath: partPath)) == partData)
    }

    /// A folder no file can be made in is the caller's to fix (exit 1), found before any rendering — also where
    /// the permission bits say yes: `/proc` refuses new files even to root, and the message names its file system
    /// rather than `ENOENT`'s "does not exist".
    @Test(arguments: [
        (["frame", "edit.json", "--at", "1s", "-o", "/proc/f.png"], "/proc/f.png"),
        (["frame", "edit.json", "--at", "1s", "-o", "/proc/poster.jpg"], "/proc/poster.jpg"),
        (["storyboard", "edit.json", "-o", "/proc", "--every", "1s"], "/proc"),
        (["export", "edit.json", "-o", "/proc/out.mp4", "--progress", "none"], "/proc/out.mp4"),
    ])
    func anUnwritableOutputFolderIsInvalidInput(arguments: [String], output: String) async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.small)
        let run = try await SpliceTool.run(arguments, in: scratch.url)
        #expect(run.status == 1, "\(run.stderr)")
        let folder = arguments[0] == "export" ? "directory" : "folder"
        #expect(run.stderr.contains(
            "cannot write \(output): the \(folder) /proc is not writable (its file system (proc) does not let files be created)"),
                "\(run.stderr)")
    }

    /// An output that is a directory, or a file the edit reads (by any name: a hard or symbolic link), is refused
    /// before any work, --overwrite or not: the export would fail at its last step, or replace its own source.
    @Test(arguments: [
        ("folder.mp4", "it is a directory"),
        ("own.mp4", "it is a source of the composition (track 1 reads it); write the export to another file"),
        ("hard.mp4", "it is a source of the composition (track 1 reads it); write the export to another file"),
        ("soft.mp4", "it is a source of the composition (track 1 reads it); write the export to another file"),
    ])
    func anOutputThatIsADirectoryOrASourceIsInvalidInput(output: String, reason: String) async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let manager = FileManager.default
        try manager.copyItem(at: scratch.file("clipA.mp4").resolvingSymlinksInPath(), to: scratch.file("own.mp4"))
        try manager.linkItem(at: scratch.file("own.mp4"), to: scratch.file("hard.mp4"))
        try manager.createSymbolicLink(at: scratch.file("soft.mp4"), withDestinationURL: scratch.file("own.mp4"))
        try manager.createDirectory(at: scratch.file("folder.mp4"), withIntermediateDirectories: false)
        try scratch.write("edit.json", Self.small.replacingOccurrences(of: "clipA.mp4", with: "own.mp4"))
        let source = try BinaryFile.read(scratch.file("own.mp4"))
        let before = scratch.contents
        for segments in [[], ["--segments", "2"]] {
            let run = try await SpliceTool.run(["export", "edit.json", "-o", output, "--overwrite", "--progress", "none"] + segments,
                                               in: scratch.url)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr == "splice: cannot export edit.json: cannot write \(scratch.file(output).path): \(reason)\n")
        }
        #expect(scratch.contents == before, "nothing written: \(scratch.contents)")
        #expect(try BinaryFile.read(scratch.file("own.mp4")) == source)
    }

    /// Values outside the range the document sets, or outside the option's choices, are usage errors (2).
    @Test(arguments: [
        (["storyboard", "edit.json", "-o", "out", "--width", "320"],
         "splice storyboard: invalid storyboard settings: tileWidth 320 is wider than the 160-pixel picture\n"
            + "Run 'splice storyboard --help' for usage.\n"),
        (["storyboard", "edit.json", "-o", "out", "--name", "../x"],
         "splice storyboard: invalid storyboard settings: the name '../x' is not a file name (no '/', not empty, '.' or '..'): "
            + "the files go into the folder given\nRun 'splice storyboard --help' for usage.\n"),
        (["storyboard", "edit.json", "-o", "out", "--name", ".."],
         "splice storyboard: invalid storyboard settings: the name '..' is not a file name (no '/', not empty, '.' or '..'): "
            + "the files go into the folder given\nRun 'splice storyboard --help' for usage.\n"),
        (["export", "edit.json", "-o", "out/x.wav"],
         "splice export: -o out/x.wav: the extension picks the file type: .mp4, .m4v, .mov, .m4a, .mkv or .webm "
            + "(or set export.fileType in the document)\nRun 'splice export --help' for usage.\n"),
    ])
    func valuesOutsideTheirRangeAreUsageErrors(arguments: [String], message: String) async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.small)
        try FileManager.default.createDirectory(at: scratch.file("out"), withIntermediateDirectories: false)
        let before = scratch.contents
        let run = try await SpliceTool.run(arguments, in: scratch.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == message)
        #expect(scratch.contents == before, "nothing written beside the output folder: \(scratch.contents)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).isEmpty)
    }

    /// `splice probe`'s media type column is as wide as the longest type: a subtitle track is `subtitle`, not cut.
    @Test func probeNamesASubtitleTrackWhole() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("cues.srt", "1\n00:00:00,000 --> 00:00:01,000\nHello\n")
        let made = try await MediaTool.run("ffmpeg", ["-v", "error", "-i", scratch.file("clipA.mp4").path, "-i", scratch.file("cues.srt").path,
                                                      "-map", "0", "-map", "1", "-c", "copy", "-c:s", "mov_text",
                                                      scratch.file("subtitled.mp4").path])
        #expect(made.errors.isEmpty, "\(made.errors)")
        let probe = try await SpliceTool.run(["probe", "subtitled.mp4"], in: scratch.url)
        #expect(probe.status == 0, "\(probe.stderr)")
        let tracks = probe.stdout.split(separator: "\n").filter { $0.hasPrefix("  track ") }.map { $0.prefix(25) }
        #expect(tracks == ["  track 1  video     h264", "  track 2  audio     aac ", "  track 3  subtitle  mov_"], "\(probe.stdout)")
    }

    @Test func planChecksItsOutputFolder() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.small)
        let run = try await SpliceTool.run(["plan", "edit.json", "--segments", "2", "-o", "missing/plan.json"], in: scratch.url)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr == "splice: cannot write missing/plan.json: the folder \(scratch.file("missing").path) does not exist\n")
        #expect(!scratch.contents.contains("missing"), "no folder made")
    }

    @Test func planNamesAPartsFolderThatCannotBeMade() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.small)
        try scratch.write("file", "a regular file")
        let run = try await SpliceTool.run(["plan", "edit.json", "--segments", "2", "-o", "plan.json", "--parts", "file/parts"],
                                           in: scratch.url)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr == "splice plan: cannot write \(scratch.file("file/parts").path): Not a directory\n")
        #expect(!scratch.contents.contains("plan.json"), "no plan written")
    }

    /// Refused before any capture device is opened: a usage error for a value, 1 for the output location.
    @Test(arguments: [
        (["-o", "take.avi"], 2, "splice record: the movie is .mp4 or .mov: give a file name ending in one of them, not 'take.avi'\n"
            + "Run 'splice record --help' for usage.\n"),
        (["-o", "take.mp4", "--max-duration", "-1s"], 2,
         "splice record: --max-duration takes a time above 0, not '-1s'\nRun 'splice record --help' for usage.\n"),
        (["-o", "take.mp4", "--fragment-interval", "0s"], 2,
         "splice record: --fragment-interval takes a time above 0, not '0s'\nRun 'splice record --help' for usage.\n"),
        (["-o", "missing/take.mp4"], 1, "splice: cannot write missing/take.mp4: the folder SCRATCH/missing does not exist\n"),
        (["-o", "kept.mp4"], 1, "splice: kept.mp4 already exists (a recording never replaces a file)\n"),
    ])
    func recordRefusesBeforeOpeningDevices(arguments: [String], status: Int32, message: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("kept.mp4", "precious")
        let limit = arguments.contains("--max-duration") ? [] : ["--max-duration", "1s"]
        let run = try await SpliceTool.run(["record", "--video", "virtual:camera"] + limit + arguments, in: scratch.url)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr == message.replacingOccurrences(of: "SCRATCH", with: scratch.url.path))
        #expect(scratch.contents == ["kept.mp4"], "nothing recorded: \(scratch.contents)")
        #expect(try TextFile.read(scratch.file("kept.mp4")) == "precious")
    }

    @Test func repairNamesTheFileAndTheCause() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let missing = try await SpliceTool.run(["repair", "nowhere.mp4"], in: scratch.url)
        #expect(missing.status == 1)
        #expect(missing.stderr == "splice repair: cannot read or truncate \(scratch.file("nowhere.mp4").path): "
                + "the file or its directory does not exist (errno 2)\n")
        try scratch.write("notes.txt", "not a movie")
        let notAMovie = try await SpliceTool.run(["repair", "notes.txt"], in: scratch.url)
        #expect(notAMovie.status == 1)
        #expect(notAMovie.stderr == "splice repair: \(scratch.file("notes.txt").path) is not an ISO media movie "
                + "(it does not start with an ftyp box or has no moov box)\n")
        try scratch.write("killed.mp4", "")
        let empty = try await SpliceTool.run(["repair", "killed.mp4"], in: scratch.url)
        #expect(empty.status == 1)
        #expect(empty.stderr == "splice repair: \(scratch.file("killed.mp4").path) is empty: the recording or export ended "
                + "before its first fragment was written, so it holds nothing to keep\n")
    }
}
