import Foundation
import Testing
import Splice
import SpliceTestSupport

/// A short-form document whose clips cut a recording with a changing location: each clip brings the recording's
/// timed metadata track as it brings its subtitles, and `splice export --segments 2`, `--smart` and
/// `plan`/`render-segment`/`join` write the groups where the clips put them; `splice probe` lists the track.
@Suite struct TimedMetadataDocumentTests {
    static func location(_ text: String) -> [MetadataItem] { [MetadataItem(key: "com.apple.quicktime.location.ISO6709", value: text)] }
    static let a = location("+48.8584+002.2945/")
    static let b = location("+48.8606+002.3376/")
    static let c = location("+48.8530+002.3499/")
    static func range(_ start: Int64, _ end: Int64) -> TimeRange { TimeRange(start: .ms(start), end: .ms(end)) }

    /// `walk.mp4` in `scratch`: 6 s of H.264 (`ffmpeg`, a key frame every second) with A over 0–2 s, B over 2–4 s and
    /// C over 4–6 s written by `AssetWriter`.
    static func writeRecording(in scratch: ScratchDirectory) async throws {
        let plain = scratch.file("plain.mp4")
        let run = try await MediaTool.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=6",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0", "-pix_fmt", "yuv420p", plain.path,
        ])
        #expect(run.errors.isEmpty, "\(run.errors)")
        let groups = [(a, 0), (b, 2000), (c, 4000)].map { TimedMetadataGroup(timeRange: range($0.1, $0.1 + 2000), items: $0.0) }
        _ = try await TimedMetadataRecording.write(scratch.file("walk.mp4"), copying: Asset.load(from: plain), groups: groups)
    }

    @Test func clipsCarryTheRecordingsTimedMetadataThroughSegmentsSmartRenderingAndTheJoin() async throws {
        guard Executable.required("ffmpeg") != nil, Executable.required("ffprobe") != nil else { return }
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try await Self.writeRecording(in: scratch)
        // The recording's 1–5 s, then its first second.
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [160, 120],
              "clips": [ { "source": "walk.mp4", "start": "1s", "duration": "4s" }, { "source": "walk.mp4", "duration": "1s" } ],
              "export": \(fastExport) }
            """)
        let runs: [(output: String, commands: [[String]])] = [
            ("segments.mp4", [["export", "edit.json", "-o", "segments.mp4", "--segments", "2"]]),
            ("smart.mp4", [["export", "edit.json", "-o", "smart.mp4", "--smart"]]),
            ("joined.mp4", [["plan", "edit.json", "--segments", "2", "-o", "plan.json"],
                            ["render-segment", "plan.json", "--index", "0"], ["render-segment", "plan.json", "--index", "1"],
                            ["join", "plan.json", "-o", "joined.mp4"]]),
        ]
        let expected = [
            TimedMetadataGroup(timeRange: Self.range(0, 1000), items: Self.a), TimedMetadataGroup(timeRange: Self.range(1000, 3000), items: Self.b),
            TimedMetadataGroup(timeRange: Self.range(3000, 4000), items: Self.c), TimedMetadataGroup(timeRange: Self.range(4000, 5000), items: Self.a),
        ]
        for (output, commands) in runs {
            for arguments in commands {
                let run = try await SpliceTool.run(arguments, in: scratch.url)
                #expect(run.status == 0, "\(arguments): \(run.stderr)")
            }
            let url = scratch.file(output)
            #expect(try await Asset.loadTimedMetadataGroups(from: url) == expected, "\(output)")
            let times = try await MediaTool.run("ffprobe", [
                "-v", "error", "-select_streams", "s:0", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", url.path,
            ])
            #expect(times.output.split(separator: "\n").filter { !$0.hasSuffix("N/A") }
                        == ["0.000000,1.000000", "1.000000,2.000000", "3.000000,1.000000", "4.000000,1.000000"],
                    "\(output): \(times.output)")
        }
        let probe = try await SpliceTool.run(["probe", "joined.mp4"], in: scratch.url)
        #expect(probe.stdout.contains("track 2  metadata  mov_text  timed metadata \"Timed Metadata\" to 5.000 s"), "\(probe.stdout)")
    }

    /// An iPhone Live Photo's boxed metadata (`mebx`) tracks: listed as metadata tracks, their groups not read.
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable)) func probeListsAnIPhonesBoxedMetadataTracks() async throws {
        let url = Fixture.sharedMedia("M04_iphone6s_livephoto_1440x1080_vfr_pcm-mono44k.mov")
        let probe = try await SpliceTool.run(["probe", url.path], in: url.deletingLastPathComponent())
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.contains("  track 3  metadata  unknown (no decoder)  timed metadata \"Core Media Metadata\" to 1.233 s"),
                "\(probe.stdout)")
        let json = try await SpliceTool.run(["probe", "--json", url.path], in: url.deletingLastPathComponent())
        let asset = try JSONDecoder().decode(Asset.self, from: Data(json.stdout.utf8))
        #expect(asset.tracks.map(\.mediaType) == [MediaType.video, .audio, .metadata, .metadata])
    }
}
