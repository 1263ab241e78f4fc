import Foundation
import Splice
import SpliceTestSupport
import Testing

/// `splice` reads `.otio` timelines wherever it reads a document, and converts between the two.
@Suite("splice: OpenTimelineIO")
struct OpenTimelineIOCLITests {
    /// A timeline made by OpenTimelineIO's Python API over the canonical clips (30 fps): A[15, 75) · gap 30 ·
    /// B[0, 45) on V1, A's sound for 60 frames on A1.
    static let script = """
        import sys
        import opentimelineio as otio
        RT, TR = otio.opentime.RationalTime, otio.opentime.TimeRange
        path, a, b = sys.argv[1:4]
        def clip(url, start, duration):
            media = otio.schema.ExternalReference(target_url=url, available_range=TR(RT(0, 30), RT(120, 30)))
            return otio.schema.Clip(media_reference=media, source_range=TR(RT(start, 30), RT(duration, 30)))
        timeline = otio.schema.Timeline(name="cli")
        video = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        video.extend([clip(a, 15, 60), otio.schema.Gap(source_range=TR(RT(0, 30), RT(30, 30))), clip(b, 0, 45)])
        audio = otio.schema.Track(kind=otio.schema.TrackKind.Audio)
        audio.append(clip(a, 0, 60))
        timeline.tracks.extend([video, audio])
        otio.adapters.write_to_file(timeline, path)
        """

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func exportValidateAndConvertReadOTIO() async throws {
        let scratch = try ScratchDirectory("otio-cli")
        defer { scratch.remove() }
        let edit = scratch.file("edit.otio")
        _ = try await PythonVerifier.run(Self.script, [
            edit.path, Fixture.url("canonical/clipA.mp4").path, "file://" + Fixture.url("canonical/clipB.mp4").path,
        ])
        let validated = try await SpliceTool.run(["validate", edit.path])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stdout.contains("valid — OpenTimelineIO form, 4.500 s, 640x360 at 30 fps, 1 video + 1 audio track"),
                "\(validated.stdout)")

        let graph = try await SpliceTool.run(["graph", edit.path])
        #expect(graph.status == 0, "\(graph.stderr)")
        #expect(!graph.stdout.isEmpty)
        let picture = scratch.file("frame.png")
        let frame = try await SpliceTool.run(["frame", edit.path, "--at", "2.5s", "-o", picture.path])
        #expect(frame.status == 0, "\(frame.stderr)")
        #expect(FileManager.default.fileExists(atPath: picture.path))

        let movie = scratch.file("edit.mp4")
        let exported = try await SpliceTool.run(["export", edit.path, "-o", movie.path, "--progress", "none"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let asset = try await Asset.load(from: movie)
        #expect(asset.tracks(withMediaType: .video).first?.video?.frameCount == 135)
        // The audio track's one clip lasts 2 s; the movie's sound runs to the composition's end, silent after it.
        #expect(asset.tracks(withMediaType: .audio).first?.timeRange.duration == MediaTime(value: 9, timescale: 2))

        let document = scratch.file("converted/edit.json")
        try FileManager.default.createDirectory(at: document.deletingLastPathComponent(), withIntermediateDirectories: true)
        let converted = try await SpliceTool.run(["convert", edit.path, "-o", document.path])
        #expect(converted.status == 0, "\(converted.stderr)")
        let reloaded = try await CompositionDocument.load(from: document)
        #expect(reloaded.composition.duration == MediaTime(value: 9, timescale: 2))
        let segments = try #require(reloaded.composition.tracks(withMediaType: .video).first?.segments)
        #expect(segments.map(\.isEmpty) == [false, true, false])
        #expect(segments.map(\.timeMapping.target.start) == [.zero, MediaTime(seconds: 2), MediaTime(seconds: 3)])
        #expect(segments[0].timeMapping.source == TimeRange(start: MediaTime(value: 1, timescale: 2), duration: MediaTime(seconds: 2)))
        #expect(segments[2].timeMapping.source == TimeRange(start: .zero, duration: MediaTime(value: 3, timescale: 2)))
    }

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func theCanonicalEditConvertsToOTIOAndRendersFromIt() async throws {
        let scratch = try ScratchDirectory("otio-cli-write")
        defer { scratch.remove() }
        let timeline = scratch.file("canonical.otio")
        let converted = try await SpliceTool.run(["convert", Fixture.example("canonical-edit.json").path, "-o", timeline.path])
        #expect(converted.status == 0, "\(converted.stderr)")
        let printed = try await PythonVerifier.run("""
            import sys
            import opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            print(timeline.duration(), [(t.kind, len(t)) for t in timeline.tracks])
            """, [timeline.path])
        // Two clips of 4 s on the video track; the music on its own audio track; the clips' sound on another.
        #expect(printed.hasPrefix("RationalTime(240, 30) ["), "\(printed)")
        #expect(printed.contains("('Video', 2)"), "\(printed)")
        let movie = scratch.file("canonical.mp4")
        let exported = try await SpliceTool.run(["export", timeline.path, "-o", movie.path, "--progress", "none"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let asset = try await Asset.load(from: movie)
        #expect(asset.tracks(withMediaType: .video).first?.video?.frameCount == 240)
    }

    /// Markers survive `splice convert` both ways: `.otio` → document (its export's chapters) → `.otio` (markers on
    /// the Stack with their ranges, colours and comments, as OpenTimelineIO reads them).
    @Test(.enabled(if: PythonVerifier.isAvailable))
    func markersSurviveConvertBothWays() async throws {
        let scratch = try ScratchDirectory("otio-cli-markers")
        defer { scratch.remove() }
        let edit = scratch.file("edit.otio")
        _ = try await PythonVerifier.run(Self.script + "\n" + """
            timeline = otio.adapters.read_from_file(path)
            timeline.global_start_time = RT(108000, 30)
            timeline.metadata["studio"] = {"shot": "A042"}
            timeline.tracks.markers.append(otio.schema.Marker(name="open", marked_range=TR(RT(15, 30), RT(30, 30)), color="GREEN", comment="first take"))
            timeline.tracks[0][2].markers.append(otio.schema.Marker(name="b", marked_range=TR(RT(9, 30), RT(0, 30))))
            otio.adapters.write_to_file(timeline, path)
            """, [edit.path, Fixture.url("canonical/clipA.mp4").path, Fixture.url("canonical/clipB.mp4").path])
        let document = scratch.file("edit.json")
        let toDocument = try await SpliceTool.run(["convert", edit.path, "-o", document.path])
        #expect(toDocument.status == 0, "\(toDocument.stderr)")
        let reloaded = try await CompositionDocument.load(from: document)
        // Clip B starts at 3 s; its marker at its media frame 9 is at 3.3 s, a point running on to the end (4.5 s).
        #expect(reloaded.document.export?.chapters?.map(\.title) == ["open", "b"])
        #expect(reloaded.document.export?.chapters?.map(\.timeRange) == [
            TimeRange(start: MediaTime(value: 1, timescale: 2), duration: MediaTime(seconds: 1)),
            TimeRange(start: MediaTime(value: 33, timescale: 10), duration: MediaTime(value: 6, timescale: 5)),
        ])
        let back = scratch.file("back.otio")
        let toTimeline = try await SpliceTool.run(["convert", document.path, "-o", back.path])
        #expect(toTimeline.status == 0, "\(toTimeline.stderr)")
        let printed = try await PythonVerifier.run("""
            import sys
            import opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            for m in timeline.tracks.markers:
                r = m.marked_range
                print(m.name, r.start_time.value_rescaled_to(30), r.duration.value_rescaled_to(30), m.color, m.comment)
            """, [back.path])
        #expect(printed.split(separator: "\n").map(String.init) == ["open 15.0 30.0 GREEN first take", "b 99.0 0.0 RED "], "\(printed)")

        // .otio → .otio keeps the timeline's own name, metadata and global start time too.
        let copy = scratch.file("copy.otio")
        let copied = try await SpliceTool.run(["convert", edit.path, "-o", copy.path])
        #expect(copied.status == 0, "\(copied.stderr)")
        let named = try await PythonVerifier.run("""
            import sys
            import opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            print(timeline.name, timeline.global_start_time, dict(timeline.metadata["studio"]), len(timeline.tracks.markers))
            """, [copy.path])
        #expect(named.trimmingCharacters(in: .whitespacesAndNewlines) == "cli RationalTime(108000, 30) {'shot': 'A042'} 2", "\(named)")
    }

    @Test func unsupportedEffectsAreRefusedOrDroppedWithTheirList() async throws {
        let scratch = try ScratchDirectory("otio-cli-effects")
        defer { scratch.remove() }
        let range = """
            { "OTIO_SCHEMA": "TimeRange.1", "start_time": { "OTIO_SCHEMA": "RationalTime.1", "rate": 30.0, "value": 0.0 },
              "duration": { "OTIO_SCHEMA": "RationalTime.1", "rate": 30.0, "value": 30.0 } }
            """
        let edit = try scratch.write("edit.otio", """
            { "OTIO_SCHEMA": "Timeline.1", "tracks": { "OTIO_SCHEMA": "Stack.1", "children": [
              { "OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [
                { "OTIO_SCHEMA": "Clip.1", "name": "x", "source_range": \(range),
                  "effects": [ { "OTIO_SCHEMA": "Effect.1", "effect_name": "Blur" }, { "OTIO_SCHEMA": "Effect.1", "effect_name": "Glow" } ],
                  "media_reference": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "\(Fixture.url("canonical/clipA.mp4").path)" } } ] } ] } }
            """)
        let refused = try await SpliceTool.run(["validate", edit.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("edit.otio:5:20: tracks.children[0].children[0].effects[0]: effect 'Blur' is not one Splice renders"), "\(refused.stderr)")
        #expect(refused.stderr.contains("edit.otio:5:74: tracks.children[0].children[0].effects[1]: effect 'Glow' is not one Splice renders"), "\(refused.stderr)")
        #expect(refused.stderr.contains("splice: \(edit.path): 2 problems"), "\(refused.stderr)")

        let dropped = try await SpliceTool.run(["validate", edit.path, "--drop-unsupported-effects"])
        #expect(dropped.status == 0, "\(dropped.stderr)")
        #expect(dropped.stderr.contains("edit.otio:5:20: tracks.children[0].children[0].effects[0]: effect 'Blur' dropped"), "\(dropped.stderr)")
        #expect(dropped.stderr.contains("edit.otio:5:74: tracks.children[0].children[0].effects[1]: effect 'Glow' dropped"), "\(dropped.stderr)")
        #expect(dropped.stdout.contains("valid — OpenTimelineIO form, 1.000 s"), "\(dropped.stdout)")
    }

    @Test func aTimelineWithMissingMediaIsInvalidInput() async throws {
        let scratch = try ScratchDirectory("otio-cli-missing")
        defer { scratch.remove() }
        let edit = try scratch.write("edit.otio", """
            { "OTIO_SCHEMA": "Timeline.1", "tracks": { "OTIO_SCHEMA": "Stack.1", "children": [
              { "OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [
                { "OTIO_SCHEMA": "Clip.1", "name": "x",
                  "media_reference": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "nowhere.mov",
                    "available_range": { "OTIO_SCHEMA": "TimeRange.1",
                      "start_time": { "OTIO_SCHEMA": "RationalTime.1", "rate": 24.0, "value": 0.0 },
                      "duration": { "OTIO_SCHEMA": "RationalTime.1", "rate": 24.0, "value": 48.0 } } } } ] } ] } }
            """)
        let run = try await SpliceTool.run(["export", edit.path, "-o", scratch.file("x.mp4").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("edit.otio:4:80: tracks.children[0].children[0].media_reference.target_url: no such file 'nowhere.mov'"),
                "\(run.stderr)")
    }
}
