import Foundation
import Testing
import Splice
import SpliceTestSupport

/// A short-form document whose clip brings its movie's subtitle track and whose `subtitles` adds a sidecar file,
/// exported by `splice export`, described by `splice probe`, and read back by `ffprobe` and `ffmpeg`.
@Suite struct SubtitleDocumentTests {
    /// The standard output of the tool named `tool` (found on `PATH`) run with `arguments`; it must print no errors.
    static func output(of tool: String, _ arguments: [String]) async throws -> String {
        let run = try await MediaTool.run(tool, arguments)
        #expect(run.errors.isEmpty, "\(tool) \(arguments): \(run.errors)")
        return run.output.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// `chaptered.mkv` in `scratch`: 2 s of H.264 titled "Probe me", chapters Opening 0–1.5 s and Close 1.5–2 s, made
    /// by the `ffmpeg` tool from an ffmetadata file.
    static func writeChapteredClip(in scratch: ScratchDirectory) async throws {
        let metadata = try scratch.write("chapters.txt", """
            ;FFMETADATA1
            title=Probe me
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1500
            title=Opening
            [CHAPTER]
            TIMEBASE=1/1000
            START=1500
            END=2000
            title=Close

            """)
        _ = try await output(of: "ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=2", "-i", metadata.path,
            "-map_metadata", "1", "-map_chapters", "1", "-c:v", "libx264", "-preset", "ultrafast", scratch.file("chaptered.mkv").path,
        ])
    }

    @Test func clipsBringTheirSubtitlesAndTheSidecarIsAddedInItsLanguage() async throws {
        guard Executable.required("ffmpeg") != nil, Executable.required("ffprobe") != nil else { return }
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let inner = try scratch.write("inner.srt", "1\n00:00:00,500 --> 00:00:01,250\nHallo\n\n2\n00:00:01,800 --> 00:00:03,100\nZweite\n")
        _ = try await Self.output(of: "ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=4", "-i", inner.path,
            "-c:v", "libx264", "-preset", "ultrafast", "-c:s", "mov_text", "-metadata:s:s:0", "language=ger",
            scratch.file("movie.mp4").path,
        ])
        try scratch.write("captions.srt", "1\n00:00:00,200 --> 00:00:00,700\nNarrator\n\n2\n00:00:04,000 --> 00:00:06,000\nTail\n")
        // The movie from 1 s (3 s of it), then clipB for 2 s: the clips last 5 s, the sidecar 6 s.
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [320, 180],
              "clips": [ { "source": "movie.mp4", "start": "1s" }, { "source": "clipB.mp4", "duration": "2s" } ],
              "subtitles": [ { "source": "captions.srt", "language": "eng" } ],
              "export": \(fastExport) }
            """)
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let out = scratch.file("out.mp4").path

        let streams = try await Self.output(of: "ffprobe", [
            "-v", "error", "-select_streams", "s", "-show_entries", "stream=index,codec_name:stream_tags=language",
            "-of", "csv=p=0", out,
        ])
        #expect(streams == "2,mov_text,ger\n3,mov_text,eng\n")
        // The movie's cues from its 1 s: "Hallo" cut at the clip's start, "Zweite" 1 s earlier.
        let clipCues = try await Self.output(of: "ffmpeg", ["-nostdin", "-v", "error", "-i", out, "-map", "0:s:0", "-f", "srt", "-"])
        #expect(clipCues == "1\n00:00:00,000 --> 00:00:00,250\nHallo\n\n2\n00:00:00,800 --> 00:00:02,100\nZweite\n\n")
        // The sidecar from 0, whole: its last cue ends after the clips, at 6 s.
        let sidecarCues = try await Self.output(of: "ffmpeg", ["-nostdin", "-v", "error", "-i", out, "-map", "0:s:1", "-f", "srt", "-"])
        #expect(sidecarCues == "1\n00:00:00,200 --> 00:00:00,700\nNarrator\n\n2\n00:00:04,000 --> 00:00:06,000\nTail\n\n")

        let probe = try await SpliceTool.run(["probe", "out.mp4"], in: scratch.url)
        #expect(probe.status == 0)
        #expect(probe.stdout.contains("track 3  subtitle  mov_text  language ger  default  2 cues to 2.100 s\n"), "\(probe.stdout)")
        #expect(probe.stdout.contains("track 4  subtitle  mov_text  language eng  2 cues to 6.000 s\n"), "\(probe.stdout)")
    }

    /// The `format=duration`, then each stream's `codec_type,duration`, of the file at `path`, as `ffprobe` reads them.
    static func durations(of path: String) async throws -> String {
        try await output(of: "ffprobe", [
            "-v", "error", "-show_entries", "format=duration:stream=codec_type,duration", "-of", "csv=p=0", path])
    }

    /// A sidecar whose last cue (3.5–6 s) ends after the clips (clipA, 4 s) lengthens the export to 6 s, as the Swift
    /// API's export of the same edit (clipA and the file's subtitle track in a `MutableComposition`) does: both
    /// files last 6 s in every stream, with the cue whole.
    @Test func aSidecarEndingAfterTheClipsLastsAsTheSwiftAPIsExportOfTheSameEdit() async throws {
        guard Executable.required("ffmpeg") != nil, Executable.required("ffprobe") != nil else { return }
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let captions = try scratch.write("captions.srt", "1\n00:00:00,500 --> 00:00:01,000\nFirst\n\n2\n00:00:03,500 --> 00:00:06,000\nLast\n")
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [320, 180],
              "clips": [ { "source": "clipA.mp4" } ],
              "subtitles": [ { "source": "captions.srt" } ],
              "export": \(fastExport) }
            """)
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "document.mp4"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")

        let clip = try await Asset.load(from: scratch.file("clipA.mp4"))
        let text = try await Asset.load(from: captions)
        var composition = try MutableComposition(asset: clip)
        let track = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(text.tracks[0].timeRange, of: text.tracks[0], at: .zero, intoTrackWithID: track)
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = scratch.file("api.mp4")
        try await session.export()

        let expected = "video,6.000000\naudio,6.000000\nsubtitle,6.000000\n6.000000\n"
        #expect(try await Self.durations(of: scratch.file("document.mp4").path) == expected)
        #expect(try await Self.durations(of: scratch.file("api.mp4").path) == expected)
        for name in ["document.mp4", "api.mp4"] {
            let cues = try await Self.output(of: "ffmpeg", [
                "-nostdin", "-v", "error", "-i", scratch.file(name).path, "-map", "0:s:0", "-f", "srt", "-"])
            #expect(cues == "1\n00:00:00,500 --> 00:00:01,000\nFirst\n\n2\n00:00:03,500 --> 00:00:06,000\nLast\n\n", "\(name)")
        }
    }

    /// `splice export DOC -o captions.vtt` writes the document's subtitle track alone, its cues placed as the
    /// export places them; an unknown `--track` is a usage error, an existing file refused without `--overwrite`.
    @Test func aSubtitleTrackIsExportedAsASidecarFile() async throws {
        guard Executable.required("ffmpeg") != nil else { return }
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("captions.srt", "1\n00:00:00,200 --> 00:00:00,700\nNarrator\n\n2\n00:00:01,500 --> 00:00:09,000\nTail\n")
        // clipB from 0.5 s for 2 s, the sidecar from 0 of the edit, cut at its end (2 s); exported from 0.1 s.
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [320, 180],
              "clips": [ { "source": "clipB.mp4", "start": "0.5s", "duration": "2s" } ],
              "subtitles": [ { "source": "captions.srt", "language": "eng" } ],
              "export": { "timeRange": { "start": "0.1", "duration": "1.9" } } }
            """)
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "captions.vtt"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try TextFile.read(scratch.file("captions.vtt"))
        #expect(text.hasPrefix("WEBVTT\n"), "\(text)")
        let cues = try await Self.output(of: "ffmpeg", ["-nostdin", "-v", "error", "-i", scratch.file("captions.vtt").path, "-f", "srt", "-"])
        #expect(cues == "1\n00:00:00,100 --> 00:00:00,600\nNarrator\n\n2\n00:00:01,400 --> 00:00:01,900\nTail\n\n")

        let again = try await SpliceTool.run(["export", "edit.json", "-o", "captions.vtt"], in: scratch.url)
        #expect(again.status == 1 && again.stderr.contains("already exists (use --overwrite to replace it)"), "\(again.stderr)")
        let unknown = try await SpliceTool.run(["export", "edit.json", "-o", "other.srt", "--track", "99"], in: scratch.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("--track 99: the document's subtitle tracks are "), "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("other.srt").path))
    }

    @Test func probeListsChapters() async throws {
        guard Executable.required("ffmpeg") != nil else { return }
        let scratch = try ScratchDirectory("probe-chapters")
        defer { scratch.remove() }
        try await Self.writeChapteredClip(in: scratch)
        let probe = try await SpliceTool.run(["probe", "chaptered.mkv"], in: scratch.url)
        #expect(probe.status == 0)
        #expect(probe.stdout.contains("  metadata  title: Probe me"), "\(probe.stdout)")
        #expect(probe.stdout.contains("  chapters  0.000 s – 1.500 s  Opening\n            1.500 s – 2.000 s  Close"),
                "\(probe.stdout)")
    }

    /// A document's clip brings its source's chapters, as it brings its subtitles: the chaptered clip from 0.5 s
    /// keeps Opening's last second and Close, and the chapterless clip after it adds none.
    @Test func documentClipsBringTheirChapters() async throws {
        guard Executable.required("ffmpeg") != nil, Executable.required("ffprobe") != nil else { return }
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try await Self.writeChapteredClip(in: scratch)
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [320, 180],
              "clips": [ { "source": "chaptered.mkv", "start": "0.5s" }, { "source": "clipB.mp4", "duration": "2s" } ],
              "export": \(fastExport) }
            """)
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.mkv"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let chapters = try await Self.output(of: "ffprobe", [
            "-v", "error", "-show_chapters", "-show_entries", "chapter=start_time,end_time:chapter_tags=title",
            "-of", "csv=p=0", scratch.file("out.mkv").path,
        ])
        #expect(chapters == "0.000000,1.000000,Opening\n1.000000,1.500000,Close\n", "\(chapters)")
    }

    /// `splice plan`, `render-segment` and `join` on a document with a sidecar: the join writes the cues once, the
    /// one across the parts' boundary (1.5 s of 3 s) whole, and the chaptered clip's chapters.
    @Test func theJoinWritesTheDocumentsSubtitlesAndChapters() async throws {
        guard Executable.required("ffmpeg") != nil, Executable.required("ffprobe") != nil else { return }
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try await Self.writeChapteredClip(in: scratch)
        try scratch.write("captions.srt", "1\n00:00:00,200 --> 00:00:00,700\nNarrator\n\n2\n00:00:01,300 --> 00:00:01,900\nAcross\n")
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [320, 180],
              "clips": [ { "source": "chaptered.mkv" }, { "source": "clipB.mp4", "duration": "1s" } ],
              "subtitles": [ { "source": "captions.srt", "language": "eng" } ],
              "export": \(fastExport) }
            """)
        for arguments in [["plan", "edit.json", "--segments", "2", "-o", "plan.json"],
                          ["render-segment", "plan.json", "--index", "0"], ["render-segment", "plan.json", "--index", "1"],
                          ["join", "plan.json", "-o", "out.mp4"]] {
            let run = try await SpliceTool.run(arguments, in: scratch.url)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        let out = scratch.file("out.mp4").path
        let cues = try await Self.output(of: "ffmpeg", ["-nostdin", "-v", "error", "-i", out, "-map", "0:s:0", "-f", "srt", "-"])
        #expect(cues == "1\n00:00:00,200 --> 00:00:00,700\nNarrator\n\n2\n00:00:01,300 --> 00:00:01,900\nAcross\n\n")
        let chapters = try await Self.output(of: "ffprobe", [
            "-v", "error", "-show_chapters", "-show_entries", "chapter=start_time,end_time:chapter_tags=title",
            "-of", "csv=p=0", out,
        ])
        // MP4 keeps chapter starts only: Close runs to the end of the chaptered clip's last chapter.
        #expect(chapters == "0.000000,1.500000,Opening\n1.500000,2.000000,Close\n", "\(chapters)")
    }
}
