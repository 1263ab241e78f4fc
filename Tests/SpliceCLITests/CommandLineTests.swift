import Foundation
import Splice
import SpliceTestSupport
import Testing

/// The built `splice` executable, run as a user runs it: exit codes, messages, and the files it writes, read back
/// with the library.
@Suite("splice command line", .serialized)
struct CommandLineTests {
    /// A short-form document over the canonical fixtures at a small size with fast settings (320x180, 8 s).
    static let smallCanonical = """
        {
          "version": 1,
          "renderSize": [320, 180],
          "clips": [
            { "source": "clipA.mp4", "fadeOut": "1s" },
            { "source": "clipB.mp4" }
          ],
          "music": { "source": "music.m4a", "fadeOut": "3s" },
          "overlays": [ { "image": "watermark.png", "position": "bottomRight", "margin": 8, "width": 80 } ],
          "export": \(fastExport)
        }
        """

    @Test func versionPrintsTheLinkedFFmpeg() async throws {
        let run = try await SpliceTool.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("splice 0.1.0\nFFmpeg "))
        #expect(run.stdout.contains("libavformat 59.") || run.stdout.contains("libavformat "))
        #expect(run.stdout.contains(MediaLibrary.license))
        #expect(run.stderr.isEmpty)
    }

    @Test(arguments: [
        (["frobnicate"], "splice: unknown command 'frobnicate'"),
        (["exprt", "a.json"], "splice: unknown command 'exprt' (did you mean 'export'?)"),
        ([String](), "splice: no command given"),
        (["export", "a.json", "--ouput", "b.mp4"], "splice export: unknown option '--ouput' (did you mean '--output'?)"),
        (["export", "a.json"], "splice export: -o/--output is required: the file to write"),
        (["export", "a.json", "-o", "x.mp4", "--progress", "fancy"], "splice export: --progress is one of bar, plain, json, none, not 'fancy'"),
        (["export", "-o", "x.mp4"], "splice export: expected a document (DOC.json)"),
        (["export", "a.json", "-o", "x.mp4", "--segments", "0"],
         "splice export: --segments N must be a whole number ≥ 1 (1: one ordinary export)"),
        (["frame", "a.json", "-o", "f.png"], "splice frame: --at is required: the time of the picture (e.g. --at 3.5s)"),
        (["probe"], "splice probe: expected at least one file"),
        (["validate", "a.json", "b.json"], "splice validate: expected 1 operand, got 2: a.json b.json"),
        (["render-segment", "--index", "0"], "splice render-segment: expected a plan (PLAN.json)"),
        (["join", "-o", "out.mp4"], "splice join: expected a plan (PLAN.json)"),
        (["repair"], "splice repair: expected a movie (MOVIE)"),
    ])
    func usageErrorsExitWith2(arguments: [String], message: String) async throws {
        let run = try await SpliceTool.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(message + "\n"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        if arguments.first == "frobnicate" || arguments.isEmpty {
            #expect(run.stderr.contains("Usage: splice COMMAND"), "the general usage follows")
        }
    }

    @Test(arguments: ["export", "probe", "frame", "graph", "validate", "expand"])
    func everyCommandHasHelpWithExamples(command: String) async throws {
        for arguments in [[command, "--help"], ["help", command], [command, "x.json", "-h"]] {
            let run = try await SpliceTool.run(arguments)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("Usage: splice \(command)"), "\(arguments)")
            #expect(run.stdout.contains("Example"))
            #expect(run.stdout.contains("130  cancelled"))
        }
    }

    @Test func exportsADocumentThatProbesRight() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.smallCanonical)
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let output = scratch.file("out.mp4").path
        #expect(run.stderr.contains("exporting \(output) (8 s)"), "plain progress when not a terminal")
        #expect(run.stderr.contains("progress 50%"))
        #expect(run.stderr.contains("wrote \(output) ("), "says where the file is")

        let asset = try await Asset.load(from: scratch.file("out.mp4"))
        let video = try #require(asset.tracks(withMediaType: .video).first)
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(asset.tracks.count == 2)
        #expect(video.codecName == "h264")
        #expect(video.naturalSize == Size(width: 320, height: 180))
        #expect(video.video?.frameCount == 240)
        #expect(video.timeRange.duration == .s(8))
        #expect(audio.codecName == "aac")
        #expect(audio.audio?.sampleRate == 48_000 && audio.audio?.channelCount == 2)
        #expect(audio.timeRange.duration == .s(8))

        let probe = try await SpliceTool.run(["probe", "out.mp4"], in: scratch.url)
        #expect(probe.status == 0)
        #expect(probe.stdout.contains("duration  8.000 s"))
        #expect(probe.stdout.contains("track 1  video     h264  320x180  30 fps  240 frames"))
        #expect(probe.stdout.contains("track 2  audio     aac  48000 Hz  2 ch (stereo)  8.000 s"))
        let json = try await SpliceTool.run(["probe", "out.mp4", "--json"], in: scratch.url)
        let described = try JSONDecoder().decode(Asset.self, from: Data(json.stdout.utf8))
        #expect(described.tracks.map(\.trackID) == asset.tracks.map(\.trackID))
        #expect(described.duration == asset.duration)
        #expect(scratch.contents == ["alpha.png", "clipA.mp4", "clipB.mp4", "edit.json", "music.m4a", "out.mp4", "photo.jpg", "watermark.png"])
    }

    @Test func jsonProgressIsOneObjectPerLine() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [160, 90], "clips": [ { "source": "clipB.mp4", "duration": "2s" } ], "export": \(fastExport) }
            """)
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.mov", "--progress", "json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.first?["event"] as? String == "started")
        #expect(events.first?["duration"] as? Double == 2)
        #expect(events.last?["event"] as? String == "completed")
        #expect(events.first?["output"] as? String == scratch.file("out.mov").path)
        #expect(events.last?["output"] as? String == scratch.file("out.mov").path)
        let bytes = try FileManager.default.attributesOfItem(atPath: scratch.file("out.mov").path)[.size] as? NSNumber
        #expect((events.last?["bytes"] as? NSNumber)?.int64Value == bytes?.int64Value)
        let progress = events.filter { $0["event"] as? String == "progress" }.compactMap { $0["progress"] as? Double }
        #expect(!progress.isEmpty)
        #expect(progress == progress.sorted(), "monotonic")
        #expect(progress.allSatisfy { (0...1).contains($0) })
        #expect(try await Asset.load(from: scratch.file("out.mov")).formatName.contains("mov"))
    }

    @Test func badDocumentGivesPointedErrorsAndExit1() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("bad.json", """
            {
              "version": 1,
              "clips": [
                { "source": "clipA.mp4" },
                { "source": "missing.mov", "fit": "fil" }
              ]
            }
            """)
        let run = try await SpliceTool.run(["export", "bad.json", "-o", "out.mp4"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("bad.json:5:39: clips[1].fit: 'fil' is not one of: fit, fill, stretch (did you mean 'fill'?)\n"), "\(run.stderr)")
        #expect(run.stderr.contains("splice: bad.json: 1 problem"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.mp4").path))

        try scratch.write("bad.json", """
            {
              "version": 1,
              "clips": [
                { "source": "clipA.mp4" },
                { "source": "missing.mov" }
              ]
            }
            """)
        let service = try await SpliceTool.run(["export", "bad.json", "-o", "out.mp4", "--progress", "json"], in: scratch.url)
        #expect(service.status == 1)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(service.stdout.utf8)) as? [String: Any])
        #expect(event["event"] as? String == "failed" && event["exitCode"] as? Int == 1)
        #expect((event["error"] as? String)?.hasPrefix("bad.json:5:17: clips[1].source: no such file 'missing.mov'") == true)
        let missing = try await SpliceTool.run(["validate", "bad.json"], in: scratch.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("bad.json:5:17: clips[1].source: no such file 'missing.mov' ("), "\(missing.stderr)")
        let json = try await SpliceTool.run(["validate", "bad.json", "--json"], in: scratch.url)
        #expect(json.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["valid"] as? Bool == false)
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["path"] as? String == "clips[1].source")
        #expect(problems.first?["line"] as? Int == 5)
    }

    @Test func missingInputsAreClearErrors() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let noDocument = try await SpliceTool.run(["export", "nowhere.json", "-o", "out.mp4"], in: scratch.url)
        #expect(noDocument.status == 1)
        #expect(noDocument.stderr.hasPrefix("nowhere.json: cannot read the document: no such file ("), "\(noDocument.stderr)")
        let noMedia = try await SpliceTool.run(["probe", "nothing.mp4"], in: scratch.url)
        #expect(noMedia.status == 1)
        #expect(noMedia.stderr == "splice: cannot load \(scratch.file("nothing.mp4").path): no such file\n")
        let notMedia = try await SpliceTool.run(["probe", Fixture.url("broken/garbage.mp4").path])
        #expect(notMedia.status == 1)
        #expect(notMedia.stderr.contains("not a media file"))
    }

    @Test func existingOutputIsKeptWithoutOverwrite() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [160, 90], "clips": [ { "source": "clipA.mp4", "duration": "1s" } ], "export": \(fastExport) }
            """)
        let existing = try scratch.write("out.mp4", "precious")
        let refused = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4"], in: scratch.url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already exists (use --overwrite to replace it)"))
        #expect(try TextFile.read(existing) == "precious")
        let replaced = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4", "--overwrite", "--progress", "none"], in: scratch.url)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stderr.isEmpty)
        #expect(try await Asset.load(from: existing).tracks(withMediaType: .video).first?.video?.frameCount == 30)
    }

    @Test func interruptedExportLeavesNoFileAndExits130() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        // Far too long (80 s of 640x360 at x264's slowest preset) to finish before the signal comes.
        let clips = Array(repeating: #"{ "source": "clipA.mp4" }, { "source": "clipB.mp4" }"#, count: 10).joined(separator: ", ")
        try scratch.write("long.json", """
            { "version": 1, "clips": [ \(clips) ],
              "export": { "settings": { "video": { "encoderPreset": "veryslow" } } } }
            """)
        let started = try SpliceTool.start(["export", "long.json", "-o", "out.mp4", "--progress", "json"], in: scratch.url)
        let deadline = Date().addingTimeInterval(60)
        while !started.stdoutSoFar.contains(#""event":"progress""#), started.process.isRunning, Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(started.process.isRunning, "the export must still be running when interrupted")
        started.process.send(SIGINT)  // SIGINT, as Ctrl-C
        let run = try await SpliceTool.finish(started, arguments: ["export"], timeout: 30)
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").last == #"{"event":"cancelled","exitCode":130}"#)
        #expect(run.stderr.contains("splice: export cancelled; no file was written"))
        #expect(!scratch.contents.contains { $0.contains("out") }, "no output and no temporary file: \(scratch.contents)")
    }

    @Test func validateExpandAndGraphTheCanonicalExample() async throws {
        let example = Fixture.example("canonical-edit.json").path
        let valid = try await SpliceTool.run(["validate", example])
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout == "\(example): valid — short form, 8.000 s, 640x360 at 30 fps, 1 video + 2 audio tracks, 1 overlay\n")

        let expanded = try await SpliceTool.run(["expand", example])
        #expect(expanded.status == 0)
        let checkedIn = try TextFile.read(Fixture.example("canonical-full.json"))
        #expect(expanded.stdout == checkedIn, "Examples/canonical-full.json is `splice expand Examples/canonical-edit.json`")

        let graph = try await SpliceTool.run(["graph", example])
        #expect(graph.status == 0)
        #expect(graph.stdout.contains("overlay=x=464:y=296"), "the watermark bottom-right with a 16-pixel margin")
        #expect(graph.stdout.contains("# audio: 2 track(s) → 48000 Hz stereo"))
    }

    @Test(arguments: ["canonical-edit.json", "canonical-full.json", "picture-in-picture.json", "slideshow.json", "vertical-phone-edit.json", "effects-tour.json"])
    func examplesAreValid(name: String) async throws {
        let run = try await SpliceTool.run(["validate", Fixture.example(name).path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(": valid — "))
    }

    @Test func frameRendersThePictureAtATime() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let example = Fixture.example("canonical-edit.json").path
        let run = try await SpliceTool.run(["frame", example, "--at", "105f", "-o", "frame.png"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "wrote frame.png (640x360 8-bit SDR, the frame at 3.500 s)\n")
        // Read the PNG back through the library: clip A's red patch at opacity 0.5 over black.
        let image = try await Asset.load(from: scratch.file("frame.png"))
        let track = try #require(image.tracks.first)
        #expect(track.naturalSize == Size(width: 640, height: 360))
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .s(1)), of: track, at: .zero, intoTrackWithID: id)
        let (frame, _) = try await AssetImageGenerator(asset: composition).image(at: .zero)
        let patch = frame.meanColor(in: Rect(x: 144, y: 80, width: 32, height: 32))
        #expect(abs(patch.red - 127.5) <= 6 && patch.green <= 6 && patch.blue <= 6, "\(patch)")

        let outside = try await SpliceTool.run(["frame", example, "--at", "9s", "-o", "late.png"], in: scratch.url)
        #expect(outside.status == 2, "a value outside the option's range is a usage error")
        #expect(outside.stderr == "splice: --at 9s: the composition runs from 0 to 8.000 s; pick a time inside it\n")
        let badTime = try await SpliceTool.run(["frame", example, "--at", "soon", "-o", "x.png"], in: scratch.url)
        #expect(badTime.status == 2)
        #expect(badTime.stderr == "splice: --at: 'soon' is not a time: unknown unit 'soon' (use s, ms or f)\n")
    }
}

/// `splice probe` on the colour fixtures: each track's colour, and HDR10 metadata when the file states it.
@Suite("splice: colour")
struct ColourCommandTests {
    @Test func probeShowsEachTracksColourAndHDR10Metadata() async throws {
        let hlg = try await SpliceTool.run(["probe", Fixture.url("hdr/hlg.mov").path])
        #expect(hlg.status == 0)
        #expect(hlg.stdout.contains("yuv420p10le  bt2020/arib-std-b67/bt2020nc limited 10-bit HDR (HLG)"), "\(hlg.stdout)")
        let pq = try await SpliceTool.run(["probe", Fixture.url("hdr/pq.mp4").path])
        #expect(pq.stdout.contains("bt2020/smpte2084/bt2020nc limited 10-bit HDR (PQ) mastering 1000/0.0001 cd/m² MaxCLL 1000 MaxFALL 400"),
                "\(pq.stdout)")
        let full = try await SpliceTool.run(["probe", Fixture.url("hdr/full.mp4").path])
        #expect(full.stdout.contains("yuvj420p  bt709/bt709/bt709 full 8-bit SDR"), "\(full.stdout)")
    }
}

/// `splice export --smart`: the plan is printed, span by span, with what was done (here: written as planned, the
/// two clips' groups copied from both files, which share one avcC), then the audio's spans (here re-encoded: clipB's
/// sound is 44.1 kHz, the output 48 kHz).
@Suite("splice export --smart")
struct SmartExportCommandTests {
    /// clipA (640 × 360 H.264, 1 s groups of pictures) from 0.5 s, then all of clipB, at the clips' own size.
    static let document = """
        {
          "version": 1,
          "clips": [ { "source": "clipA.mp4", "start": "0.5s", "duration": "3.5s" }, { "source": "clipB.mp4" } ],
          "export": \(fastExport)
        }
        """

    @Test func printsEachSpanAndTheFallback() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.document)
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4", "--smart"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("smart rendering: ") }.map(String.init)
        let rate = "the source does not match the output: the source has 44100 Hz, the output 48000 Hz"
        let untouched: String = "untouched, but re-encoded with the rest of the track (copied AAC only for a whole "
            + "untouched track; elsewhere: from 3.500 s: \(rate))"
        let expected: [String] = [
            "smart rendering: re-encode 0.000–0.500 s (15 frames): partial group of pictures at the cut at 0.000 s",
            "smart rendering: copy 0.500–3.500 s (90 frames, 3 groups of pictures)",
            "smart rendering: copy 3.500–7.500 s (120 frames, 4 groups of pictures)",
            "smart rendering: audio re-encode 0.000–3.500 s: \(untouched)",
            "smart rendering: audio re-encode 3.500–7.500 s: \(rate)",
        ]
        #expect(lines == expected, "\(run.stderr)")
    }
}
