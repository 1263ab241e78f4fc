import Foundation
import Splice
import SpliceTestSupport
import Testing

/// A Stack inside a track is a nested composition: its own tracks, trimmed by its `source_range`, pre-composed and
/// shown where the Stack sits.
@Suite("OpenTimelineIO: nested stacks")
struct OpenTimelineIONestingTests {
    /// V1: A[10, 22) · a Stack (B[0, 12) · gap 6 · A[30, 36)) trimmed to its frames [3, 15) · B[40, 46).
    static let script = OpenTimelineIOScript.building("""
        inner = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        inner.extend([clip(b, 0, 12), otio.schema.Gap(source_range=TR(RT(0, rate), RT(6, rate))), clip(a, 30, 6)])
        stack = otio.schema.Stack(name="nested", source_range=TR(RT(3, rate), RT(12, rate)))
        stack.append(inner)
        stack.markers.append(otio.schema.Marker(name="inside", marked_range=TR(RT(5, rate), RT(0, rate))))
        timeline = otio.schema.Timeline(name="nesting")
        video = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        video.extend([clip(a, 10, 12), stack, clip(b, 40, 6)])
        timeline.tracks.append(video)
        otio.adapters.write_to_file(timeline, path)
        print(timeline.duration().value)
        """)

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func aNestedStackRendersAsANestedComposition() async throws {
        let scratch = try ScratchDirectory("otio-nested")
        defer { scratch.remove() }
        let (edit, printed) = try await OpenTimelineIOScript.buildTimeline(Self.script, in: scratch)
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "30.0")
        let (loaded, timeline) = try await OpenTimelineIO.load(from: edit)
        defer { for file in timeline.nestedDocuments.keys { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) } }
        let frame = InterchangeMedia.frameDuration
        #expect(timeline.nestedDocuments.count == 1)
        #expect(loaded.composition.duration == frame * 30)
        // The nested marker at its frame 5 is at 12 + (5 − 3) on the timeline.
        #expect(timeline.markers.map(\.timeRange.start) == [frame * 14])

        let output = scratch.file("edit.mp4")
        try await loaded.makeExportSession(outputURL: output).export()
        let shown = try await InterchangeMedia.shownFrames(of: output)
        let expected: [InterchangeMedia.Shown] = (10..<22).map { .init(blue: 64, frame: $0) }
            + (3..<12).map { .init(blue: 192, frame: $0) } + Array(repeating: .black, count: 3)
            + (40..<46).map { .init(blue: 192, frame: $0) }
        #expect(shown.count == 30)
        for (index, (got, want)) in zip(shown, expected).enumerated() where got != want {
            Issue.record("output frame \(index) shows \(got), expected \(want)")
        }
    }

    /// Every track's items, nested Stacks opened, as OpenTimelineIO reads them (frames at 24000/1001).
    static func describeScript(rate: String = "24000 / 1001") -> String {
        OpenTimelineIOScript.reading(rate: rate, """
            def items(track):
                row = []
                for item in track:
                    if isinstance(item, otio.schema.Stack):
                        inner = "; ".join(items(t) for t in item)
                        row.append("Stack[%s+%s](%s)" % (f(item.source_range.start_time), f(item.source_range.duration), inner))
                    elif isinstance(item, otio.schema.Clip):
                        row.append("%s[%s+%s]" % (item.media_reference.target_url, f(item.source_range.start_time), f(item.source_range.duration)))
                    else:
                        row.append("gap %s" % f(item.source_range.duration))
                return track.kind + " " + " ".join(row)
            for track in timeline.tracks:
                print(items(track))
            """)
    }

    /// A document naming another document as a source is written with that document as a nested Stack: its
    /// tracks, trimmed to the part shown, with its video composition (a fade) kept for Splice.
    @Test(.enabled(if: PythonVerifier.isAvailable))
    func aNestedDocumentIsWrittenAsANestedStack() async throws {
        let scratch = try ScratchDirectory("otio-nested-document")
        defer { scratch.remove() }
        let film = MediaTime(value: 1, timescale: 24)
        try InterchangeMedia.framecodeClips(in: scratch, frameDuration: film)
        _ = try scratch.write("inner.json", """
            { "version": 1, "clips": [ { "source": "a.mov", "start": "0.5s", "duration": "1s", "fadeOut": "0.5s" } ] }
            """)
        let outer = try scratch.write("outer.json", """
            { "version": 1, "clips": [ { "source": "inner.json", "start": "0.25s" }, { "source": "b.mov", "duration": "0.5s" } ] }
            """)
        let loaded = try await CompositionDocument.load(
            from: outer, assetLoader: CompositionDocument.nestingAssetLoader(intermediatesIn: scratch.url, enclosing: [outer]))
        let nested = try await OpenTimelineIO.nestedCompositions(of: loaded)
        let inner = try #require(nested[scratch.file("inner.json").standardizedFileURL.path])
        #expect(inner.videoComposition != nil)
        let written = try scratch.write("outer.otio", try OpenTimelineIO.text(for: loaded, nested: nested, relativeTo: scratch.url))
        let described = try await PythonVerifier.run(Self.describeScript(rate: "24"), [written.path])
        // The inner document's 24 frames of A from its frame 12 (picture and sound), shown from their frame 6; then
        // 12 frames of B. The outer sound track shows the same Stack.
        #expect(described.split(separator: "\n").map(String.init) == [
            "Video Stack[6+18](Video a.mov[12+24]; Audio a.mov[12+24]) b.mov[0+12]",
            "Audio Stack[6+18](Video a.mov[12+24]; Audio a.mov[12+24]) b.mov[0+12]",
        ], "\(described)")

        let (reread, timeline) = try await OpenTimelineIO.load(from: written)
        defer { for file in timeline.nestedDocuments.keys { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) } }
        #expect(reread.composition.duration == film * 30)
        #expect(timeline.nestedDocuments.count == 2)
        #expect(timeline.nestedDocuments.values.allSatisfy { $0.videoComposition == inner.videoComposition })
    }

    /// Written back, the nested Stack is a nested Stack again, trimmed as it was, its clips' paths relative as
    /// OpenTimelineIO wrote them; read again, its document is the same.
    @Test(.enabled(if: PythonVerifier.isAvailable))
    func aNestedStackIsWrittenBackAsANestedStack() async throws {
        let scratch = try ScratchDirectory("otio-nested-write")
        defer { scratch.remove() }
        let edit = try await OpenTimelineIOScript.buildTimeline(Self.script, in: scratch).url
        let original = try await PythonVerifier.run(Self.describeScript(), [edit.path])
        #expect(original.trimmingCharacters(in: .newlines)
                == "Video a.mov[10+12] Stack[3+12](Video b.mov[0+12] gap 6 a.mov[30+6]) b.mov[40+6]", "\(original)")

        let (loaded, timeline) = try await OpenTimelineIO.load(from: edit)
        defer { for file in timeline.nestedDocuments.keys { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) } }
        let nested = try await OpenTimelineIO.nestedCompositions(of: loaded)
        #expect(nested.count == 1)
        let written = try scratch.write(
            "written.otio", try OpenTimelineIO.text(for: loaded, timeline: timeline, nested: nested, relativeTo: scratch.url))
        let described = try await PythonVerifier.run(Self.describeScript(), [written.path])
        #expect(described == original, "\(described)")

        let (reread, again) = try await OpenTimelineIO.load(from: written)
        defer { for file in again.nestedDocuments.keys { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) } }
        #expect(reread.composition.duration == loaded.composition.duration)
        // The same media, ranges and places (the source track, written as Splice's metadata, is now named: the first).
        func placements(_ timeline: OpenTimelineIO.ImportedTimeline) -> [String] {
            timeline.nestedDocuments.values.flatMap(\.composition.tracks).flatMap(\.segments).map {
                "\($0.source) \($0.timeRange.map { "\($0)" } ?? "-") \($0.at.map { "\($0)" } ?? "-")"
            }
        }
        #expect(placements(again) == placements(timeline))
        #expect(placements(again).count == 2)
    }
}
