import Foundation
import Splice
import SpliceTestSupport
import Testing

/// What Splice writes as `.otio` is read by OpenTimelineIO's Python package with the exact ranges, and read back by
/// Splice as the same composition; a timeline OpenTimelineIO made survives the trip through Splice.
@Suite("OpenTimelineIO: writing")
struct OpenTimelineIOWritingTests {
    /// `n` frames at 24000/1001 fps, as document time text.
    static func f(_ n: Int64) -> String { "\(n * 1001)/24000" }

    /// Video track 1: A[10, 34) · 12 empty frames · B[5, 17) reversed · A frozen at 50 for 6 · A[40, 48) slowed to 24
    /// frames (a third of the speed: a `time_scalar` a double cannot hold); audio track 2: A's sound for 54 frames.
    static let document = """
        { "version": 1,
          "composition": { "tracks": [
            { "trackID": 1, "mediaType": "video", "segments": [
              { "source": "a.mov", "timeRange": { "start": "\(f(10))", "duration": "\(f(24))" }, "at": "0/1" },
              { "source": "b.mov", "timeRange": { "start": "\(f(5))", "duration": "\(f(12))" }, "at": "\(f(36))", "reverse": true },
              { "source": "a.mov", "freezeFrame": "\(f(50))", "toDuration": "\(f(6))" },
              { "source": "a.mov", "timeRange": { "start": "\(f(40))", "duration": "\(f(8))" }, "toDuration": "\(f(24))" }
            ] },
            { "trackID": 2, "mediaType": "audio", "segments": [
              { "source": "a.mov", "timeRange": { "start": "0/1", "duration": "\(f(54))" } }
            ] }
          ] } }
        """

    /// Prints every track's items as OpenTimelineIO reads them: `schema start/rate+duration/rate [effects]`.
    static let describeScript = OpenTimelineIOScript.reading("""
        def t(time):
            return "%g@%g" % (time.value, time.rate)
        print("duration", t(timeline.duration()))
        for track in timeline.tracks:
            print(track.kind, track.name)
            for item in track:
                effects = ",".join("%s(%g)" % (e.effect_name, e.time_scalar) for e in getattr(item, "effects", []))
                target = item.media_reference.target_url if isinstance(item, otio.schema.Clip) else ""
                print(" ", item.schema_name(), t(item.source_range.start_time), t(item.source_range.duration), effects, target)
                print("   at", t(track.range_of_child(item).start_time))
        """)

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func openTimelineIOReadsWhatSpliceWritesWithTheExactRanges() async throws {
        let scratch = try ScratchDirectory("otio-write")
        defer { scratch.remove() }
        try InterchangeMedia.framecodeClips(in: scratch)
        let loaded = try await CompositionDocument.load(from: try scratch.write("edit.json", Self.document))
        let edit = try scratch.write("edit.otio", try OpenTimelineIO.text(for: loaded, relativeTo: scratch.url))
        let printed = try await PythonVerifier.run(Self.describeScript, [edit.path])
        let rate = "23.976"
        #expect(printed.split(separator: "\n").map(String.init) == [
            "duration 78@\(rate)",
            "Video V1",
            "  Clip 10@\(rate) 24@\(rate)  a.mov", "   at 0@\(rate)",
            "  Gap 0@\(rate) 12@\(rate)  ", "   at 24@\(rate)",
            "  Clip 17@\(rate) 12@\(rate) LinearTimeWarp(-1) b.mov", "   at 36@\(rate)",
            "  Clip 50@\(rate) 6@\(rate) FreezeFrame(0) a.mov", "   at 48@\(rate)",
            "  Clip 40@\(rate) 24@\(rate) LinearTimeWarp(0.333333) a.mov", "   at 54@\(rate)",
            "Audio A2",
            "  Clip 0@\(rate) 54@\(rate)  a.mov", "   at 0@\(rate)",
        ], "\(printed)")

        // Splice → OTIO → Splice: the same composition, segment for segment.
        let (reread, _) = try await OpenTimelineIO.load(from: edit)
        #expect(reread.composition == loaded.composition)
    }

    /// A file named by an absolute path is written with it; one named relative to the timeline is written relative
    /// to where the new file is saved. OpenTimelineIO reads the `target_url`s.
    @Test(.enabled(if: PythonVerifier.isAvailable))
    func mediaPathsStayAbsoluteOrRelativeAsWritten() async throws {
        let scratch = try ScratchDirectory("otio-paths")
        defer { scratch.remove() }
        let a = try InterchangeMedia.framecodeClips(in: scratch).a
        let original = scratch.file("original.otio")
        _ = try await PythonVerifier.run(OpenTimelineIOReadingTests.editScript, [original.path, a.path, "b.mov"])
        let (loaded, timeline) = try await OpenTimelineIO.load(from: original)
        let urls = OpenTimelineIOScript.reading("""
            print(" ".join(sorted(set(clip.media_reference.target_url for clip in timeline.find_clips()))))
            """)
        let here = try scratch.write("here.otio", try OpenTimelineIO.text(for: loaded, timeline: timeline, relativeTo: scratch.url))
        let printedHere = try await PythonVerifier.run(urls, [here.path])
        #expect(printedHere.trimmingCharacters(in: .whitespacesAndNewlines) == "\(a.path) b.mov")
        try FileManager.default.createDirectory(at: scratch.file("cuts"), withIntermediateDirectories: true)
        let below = try scratch.write("cuts/below.otio", try OpenTimelineIO.text(for: loaded, timeline: timeline, relativeTo: scratch.file("cuts")))
        let printedBelow = try await PythonVerifier.run(urls, [below.path])
        #expect(printedBelow.trimmingCharacters(in: .whitespacesAndNewlines) == "../b.mov \(a.path)")
        // Read back from its folder, the moved timeline names the same files.
        let (reread, _) = try await OpenTimelineIO.load(from: below)
        #expect(reread.composition == loaded.composition)
    }

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func aTimelineOpenTimelineIOMadeSurvivesTheTripThroughSplice() async throws {
        let scratch = try ScratchDirectory("otio-trip")
        defer { scratch.remove() }
        let original = try await OpenTimelineIOScript.buildTimeline(OpenTimelineIOReadingTests.editScript, named: "original.otio", in: scratch).url
        let (loaded, timeline) = try await OpenTimelineIO.load(from: original)
        let written = try scratch.write(
            "written.otio", try OpenTimelineIO.text(for: loaded, timeline: timeline, relativeTo: scratch.url))
        // Equal up to the documented differences: item names and metadata (the timeline's is kept), markers moved to the timeline's Stack, and
        // rates written as the exact rational (the
        // timeline's duration: 78 frames at 23.976 before, at 24000/1001 after; OpenTimelineIO's ranges compare
        // within its own tolerance).
        let compare = """
            import sys
            import opentimelineio as otio
            def items(path):
                timeline = otio.adapters.read_from_file(path)
                rows = []
                for track in timeline.tracks:
                    for item in track:
                        effects = [(e.effect_name, e.time_scalar) for e in getattr(item, "effects", [])]
                        rows.append((track.kind, item.schema_name(), item.source_range, effects,
                                     track.range_of_child(item)))
                duration = timeline.duration()
                markers = sorted(m.name for item in [timeline.tracks] + list(timeline.find_children()) for m in item.markers)
                studio = dict(timeline.metadata.get("studio", {}))
                return rows, (duration.value, round(duration.rate, 2)), timeline.name, timeline.global_start_time, markers, studio
            a, b = items(sys.argv[1]), items(sys.argv[2])
            print(len(a[0]), a == b)
            """
        let printed = try await PythonVerifier.run(compare, [original.path, written.path])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "7 True")
    }
}
