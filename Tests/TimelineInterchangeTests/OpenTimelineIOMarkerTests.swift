import Foundation
import Splice
import SpliceTestSupport
import Testing

/// Markers are the chapters of what a timeline exports, and survive `splice convert` both ways: `.otio` → document
/// (`export.chapters`) → `.otio` gives markers with the same names, ranges in the timeline, colours and comments.
@Suite("OpenTimelineIO: markers and chapters")
struct OpenTimelineIOMarkerTests {
    /// V1: A[10, 58) · gap 12 · B[0, 24), 84 frames at 24000/1001 fps; markers on the Stack ("top", frames 5 + 10,
    /// GREEN, a comment), on A (a point at its media frame 20: composition frame 10, RED), on the gap (its frames
    /// 2 + 4: composition 50 + 4) and on the track (70 + 2, default colour).
    static let script = OpenTimelineIOScript.building("""
        def marker(name, start, duration, **fields):
            return otio.schema.Marker(name=name, marked_range=TR(RT(start, rate), RT(duration, rate)), **fields)
        timeline = otio.schema.Timeline(name="markers")
        video = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        first = clip(a, 10, 48)
        first.markers.append(marker("on a", 20, 0, color="RED"))
        gap = otio.schema.Gap(source_range=TR(RT(0, rate), RT(12, rate)))
        gap.markers.append(marker("gap", 2, 4, color="BLUE"))
        video.extend([first, gap, clip(b, 0, 24)])
        video.markers.append(marker("track", 70, 2))
        timeline.tracks.append(video)
        timeline.tracks.markers.append(marker("top", 5, 10, color="GREEN", comment="from the top"))
        otio.adapters.write_to_file(timeline, path)
        """)

    /// Prints every marker of a timeline in the timeline's time, as OpenTimelineIO places it (sorted by name):
    /// `name start+duration colour comment`, in frames at 24000/1001.
    static let placedScript = OpenTimelineIOScript.reading("""
        rows = []
        for item in [timeline.tracks] + list(timeline.find_children()):
            for m in item.markers:
                placed = m.marked_range if item is timeline.tracks else item.transformed_time_range(m.marked_range, timeline.tracks)
                rows.append("%s %s+%s %s %s" % (m.name, f(placed.start_time), f(placed.duration), m.color, m.comment or "-"))
        print("\\n".join(sorted(rows)))
        """)

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func markersBecomeChaptersAndComeBackAsMarkers() async throws {
        let scratch = try ScratchDirectory("otio-markers")
        defer { scratch.remove() }
        let edit = try await OpenTimelineIOScript.buildTimeline(Self.script, in: scratch).url
        let expected = [
            "gap 50+4 BLUE -", "on a 10+0 RED -", "top 5+10 GREEN from the top", "track 70+2 RED -",
        ]
        let placed = try await PythonVerifier.run(Self.placedScript, [edit.path])
        #expect(placed.split(separator: "\n").map(String.init) == expected, "\(placed)")

        // .otio → document: the markers are the export's chapters, in time order.
        let (loaded, _) = try await OpenTimelineIO.load(from: edit)
        let frame = InterchangeMedia.frameDuration
        let chapters = try #require(loaded.document.export?.chapters)
        #expect(chapters.map(\.title) == ["top", "on a", "gap", "track"])
        // The point marker's chapter runs on to the next marker (frame 50).
        #expect(chapters.map(\.timeRange) == [
            TimeRange(start: frame * 5, duration: frame * 10), TimeRange(start: frame * 10, duration: frame * 40),
            TimeRange(start: frame * 50, duration: frame * 4), TimeRange(start: frame * 70, duration: frame * 2),
        ])
        #expect(chapters[0].items.map(\.key) == ["title", "color", "comment"])
        #expect(chapters[1].items.map(\.value) == ["on a", "RED", "0"])
        let json = try scratch.write("edit.json", try loaded.expandedJSON(relativeTo: scratch.url))

        // document → .otio: the chapters are markers again, where OpenTimelineIO placed the originals.
        let document = try await CompositionDocument.load(from: json)
        #expect(document.document.export?.chapters == chapters)
        let back = try scratch.write("back.otio", try OpenTimelineIO.text(for: document, relativeTo: scratch.url))
        let replaced = try await PythonVerifier.run(Self.placedScript, [back.path])
        #expect(replaced.split(separator: "\n").map(String.init) == expected, "\(replaced)")

        // The export writes them as chapters (to the millisecond), read back by ffprobe.
        let movie = scratch.file("edit.mkv")
        try await loaded.makeExportSession(outputURL: movie).export()
        let probed = try await InterchangeMedia.run(tool: "ffprobe", [
            "-v", "error", "-show_entries", "chapter=start_time,end_time:chapter_tags=title", "-of", "csv=p=0", movie.path,
        ])
        let milliseconds = { (frames: Int64) in String(format: "%.6f", (Double(frames * 1001) / 24).rounded() / 1000) }
        #expect(probed.split(separator: "\n").map(String.init) == [
            "\(milliseconds(5)),\(milliseconds(15)),top", "\(milliseconds(10)),\(milliseconds(50)),on a",
            "\(milliseconds(50)),\(milliseconds(54)),gap", "\(milliseconds(70)),\(milliseconds(72)),track",
        ], "\(probed)")
    }
}
