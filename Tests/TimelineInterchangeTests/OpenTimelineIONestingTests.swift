import Foundation
import Splice
import SpliceTestSupport
import Testing

/// A Stack inside a track is a nested composition: its own tracks, trimmed by its `source_range`, pre-composed and
/// shown where the Stack sits.
@Suite("OpenTimelineIO: nested stacks")
struct OpenTimelineIONestingTests {
    /// V1: A[10, 22) · a Stack (B[0, 12) · gap 6 · A[30, 36)) trimmed to its frames [3, 15) · B[40, 46).
    static let script = """
        import sys
        import opentimelineio as otio
        RT, TR = otio.opentime.RationalTime, otio.opentime.TimeRange
        path, a, b = sys.argv[1:4]
        ntsc = 24000 / 1001
        def clip(url, start, duration):
            media = otio.schema.ExternalReference(target_url=url, available_range=TR(RT(0, ntsc), RT(64, ntsc)))
            return otio.schema.Clip(media_reference=media, source_range=TR(RT(start, ntsc), RT(duration, ntsc)))
        inner = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        inner.extend([clip(b, 0, 12), otio.schema.Gap(source_range=TR(RT(0, ntsc), RT(6, ntsc))), clip(a, 30, 6)])
        stack = otio.schema.Stack(name="nested", source_range=TR(RT(3, ntsc), RT(12, ntsc)))
        stack.append(inner)
        stack.markers.append(otio.schema.Marker(name="inside", marked_range=TR(RT(5, ntsc), RT(0, ntsc))))
        timeline = otio.schema.Timeline(name="nesting")
        video = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        video.extend([clip(a, 10, 12), stack, clip(b, 40, 6)])
        timeline.tracks.append(video)
        otio.adapters.write_to_file(timeline, path)
        print(timeline.duration().value)
        """

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func aNestedStackRendersAsANestedComposition() async throws {
        let scratch = try ScratchDirectory("otio-nested")
        defer { scratch.remove() }
        _ = try InterchangeMedia.framecodeClip("a.mov", blue: 64, in: scratch)
        _ = try InterchangeMedia.framecodeClip("b.mov", blue: 192, in: scratch)
        let edit = scratch.file("edit.otio")
        let printed = try await PythonVerifier.run(Self.script, [edit.path, "a.mov", "b.mov"])
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
}
