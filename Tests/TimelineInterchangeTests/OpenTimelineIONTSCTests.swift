import Foundation
import Splice
import SpliceTestSupport
import Testing

/// A timeline at 29.97 fps made with OpenTimelineIO's Python API, holding everything Splice reads at once: a
/// dissolve, a speed change, a freeze and a trimmed nested Stack, rendered frame for frame.
@Suite("OpenTimelineIO: a 29.97 fps timeline")
struct OpenTimelineIONTSCTests {
    /// V1, at rate 29.97: A[10, 30) ⟋4|4⟍ B[20, 40) · A from 40 at 2× for 8 · A frozen at 50 for 5 · a Stack
    /// (B[0, 10) · A[0, 10)) trimmed to its frames [5, 15); 63 frames.
    static let script = OpenTimelineIOScript.building(rate: "29.97", """
        fast = clip(a, 40, 8)
        fast.effects.append(otio.schema.LinearTimeWarp(time_scalar=2.0))
        frozen = clip(a, 50, 5)
        frozen.effects.append(otio.schema.FreezeFrame())
        inner = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        inner.extend([clip(b, 0, 10), clip(a, 0, 10)])
        stack = otio.schema.Stack(source_range=TR(RT(5, 29.97), RT(10, 29.97)))
        stack.append(inner)
        video = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        video.extend([clip(a, 10, 20), otio.schema.Transition(transition_type="SMPTE_Dissolve", in_offset=RT(4, 29.97),
                      out_offset=RT(4, 29.97)), clip(b, 20, 20), fast, frozen, stack])
        timeline = otio.schema.Timeline(name="rate")
        timeline.tracks.append(video)
        otio.adapters.write_to_file(timeline, path)
        print(timeline.duration().value, timeline.duration().rate)
        """)

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func everyKindOfItemRendersFrameExactAt2997() async throws {
        let scratch = try ScratchDirectory("otio-ntsc")
        defer { scratch.remove() }
        let frame = MediaTime(value: 1001, timescale: 30000)
        let (edit, printed) = try await OpenTimelineIOScript.buildTimeline(Self.script, named: "ntsc.otio", in: scratch, frameDuration: frame)
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "63.0 29.97")
        let (loaded, timeline) = try await OpenTimelineIO.load(from: edit)
        defer { for file in timeline.nestedDocuments.keys { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) } }
        #expect(loaded.composition.duration == frame * 63)
        #expect(timeline.transitions.map(\.timeRange) == [TimeRange(start: frame * 16, duration: frame * 8)])

        let output = scratch.file("ntsc.mp4")
        try await loaded.makeExportSession(outputURL: output).export()
        // 63 frames of 1001/30000 s, read back by ffprobe.
        #expect(try await InterchangeMedia.probedDuration(of: output, stream: "v") == "2.102100")
        let shown = try await InterchangeMedia.shownFrames(of: output)
        #expect(shown.count == 63)
        var expected: [Int: InterchangeMedia.Shown] = [:]
        for k in 0..<16 { expected[k] = .init(blue: 64, frame: 10 + k) }
        for k in 24..<40 { expected[k] = .init(blue: 192, frame: k) }
        for k in 40..<48 { expected[k] = .init(blue: 64, frame: 40 + 2 * (k - 40)) }
        for k in 48..<53 { expected[k] = .init(blue: 64, frame: 50) }
        for k in 53..<58 { expected[k] = .init(blue: 192, frame: k - 48) }
        for k in 58..<63 { expected[k] = .init(blue: 64, frame: k - 58) }
        for (k, want) in expected.sorted(by: { $0.key < $1.key }) where k < shown.count {
            #expect(shown[k] == want, "output frame \(k)")
        }
        // Inside the dissolve, B's share grows linearly: blue = 64 + 128 × (k − 16) / 8, within encoding noise.
        let colours = try await InterchangeMedia.averageColours(of: output)
        for k in 17..<24 where k < colours.count {
            let blue = 64 + 128 * Double(k - 16) / 8
            #expect(abs(Double(colours[k][2]) - blue) <= 4, "frame \(k): blue \(colours[k][2]), expected \(blue)")
        }
    }
}
