import Foundation
import Splice
import SpliceTestSupport
import SpliceTesting
import Testing

/// A CMX 3600 EDL converted by OpenTimelineIO's own EDL adapter renders with the source frame each event names.
@Suite("OpenTimelineIO: an EDL through the CMX 3600 adapter")
struct EDLConversionTests {
    /// Two events at 24 fps: A 00:00:00:10–00:00:01:10 at record 01:00:00:00, B 00:00:00:05–00:00:00:17 at
    /// 01:00:01:06 (six frames of nothing between them).
    static let script = """
        import sys
        import opentimelineio as otio
        edl = '''TITLE: framecodes
        FCM: NON-DROP FRAME

        001  AX       V     C        00:00:00:10 00:00:01:10 01:00:00:00 01:00:01:00
        * FROM CLIP NAME: a
        * FROM FILE: a.mov

        002  AX       V     C        00:00:00:05 00:00:00:17 01:00:01:06 01:00:01:18
        * FROM CLIP NAME: b
        * FROM FILE: b.mov
        '''
        timeline = otio.adapters.read_from_string(edl, "cmx_3600", rate=24)
        otio.adapters.write_to_file(timeline, sys.argv[1])
        print(timeline.duration().value)
        """

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func eventsRenderWithTheirSourceFrames() async throws {
        let scratch = try ScratchDirectory("otio-edl")
        defer { scratch.remove() }
        let film = MediaTime(value: 1, timescale: 24)
        let (edit, printed) = try await OpenTimelineIOScript.buildTimeline(Self.script, named: "edl.otio", in: scratch, frameDuration: film)
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "42.0")
        let (loaded, _) = try await OpenTimelineIO.load(from: edit)
        #expect(loaded.composition.duration == film * 42)
        let output = scratch.file("edl.mp4")
        try await loaded.makeExportSession(outputURL: output).export()
        let shown = try await InterchangeMedia.shownFrames(of: output)
        let expected: [InterchangeMedia.Shown] = (10..<34).map { .init(blue: 64, frame: $0) }
            + Array(repeating: .black, count: 6) + (5..<17).map { .init(blue: 192, frame: $0) }
        #expect(shown.count == 42)
        for (index, (got, want)) in zip(shown, expected).enumerated() where got != want {
            Issue.record("output frame \(index) shows \(got), expected \(want)")
        }
        // The EDL's events are picture only ("V"): 42 frames at 24 fps, read back by ffprobe.
        #expect(try await InterchangeMedia.probedDuration(of: output, stream: "v") == "1.750000")
    }

    /// The same events on picture and sound ("B"): each clip beeps for one frame (A at its frame 20, B at its frame
    /// 8), so the output beeps where those frames are shown — output frames 10 and 30 + 3 — to the millisecond.
    @Test(.enabled(if: PythonVerifier.isAvailable))
    func eventsOnPictureAndSoundStayInSync() async throws {
        let scratch = try ScratchDirectory("otio-edl-sound")
        defer { scratch.remove() }
        let film = MediaTime(value: 1, timescale: 24)
        // One frame at 24 fps is 2000 samples at 48 kHz.
        _ = try InterchangeMedia.framecodeClip(
            "a.mov", blue: 64, frameDuration: film, audio: SyntheticSource.beep(atSample: 20 * 2000, length: 2000).description, in: scratch)
        _ = try InterchangeMedia.framecodeClip(
            "b.mov", blue: 192, frameDuration: film, audio: SyntheticSource.beep(atSample: 8 * 2000, length: 2000).description, in: scratch)
        let edit = scratch.file("edl.otio")
        let script = Self.script.replacingOccurrences(of: "  AX       V     C  ", with: "  AX       B     C  ")
        #expect(script != Self.script)
        let printed = try await PythonVerifier.run(script, [edit.path])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "42.0")
        let (loaded, _) = try await OpenTimelineIO.load(from: edit)
        #expect(loaded.composition.tracks(withMediaType: .audio).count == 1)
        #expect(loaded.composition.duration == film * 42)
        let output = scratch.file("edl.mp4")
        try await loaded.makeExportSession(outputURL: output).export()
        let shown = try await InterchangeMedia.shownFrames(of: output)
        #expect(shown.count == 42)
        #expect(shown[10] == .init(blue: 64, frame: 20))
        #expect(shown[33] == .init(blue: 192, frame: 8))
        // The beeps where those frames are shown: samples 20 000 and 66 000, within a millisecond (48 samples).
        let onsets = try await InterchangeMedia.soundOnsets(of: output)
        #expect(onsets.count == 2, "\(onsets)")
        for (onset, expected) in zip(onsets, [10 * 2000, 33 * 2000]) {
            #expect(abs(onset - expected) <= 48, "a beep starts at sample \(onset), expected \(expected)")
        }
    }
}
