import Foundation
import SpliceTestSupport
import Testing

/// `export.passthroughAudioCuts` in a document and the lines `splice export` prints for it: with the `Passthrough`
/// preset an audio track cut off its packet grid is re-encoded by default and named on standard error with the cut;
/// `"nearestPacket"` copies it and prints nothing; any other value is refused at its place in the document.
@Suite("passthrough audio cuts on the command line")
struct PassthroughAudioCutsCLITests {
    /// clipA's video and audio from 1 s to 2 s (a key frame at each end; 1 s is 46.875 AAC packets into the audio),
    /// copied by passthrough; `cuts` is the `passthroughAudioCuts` member, or empty.
    static func document(cuts: String = "") -> String {
        """
        {
          "version": 1,
          "composition": { "tracks": [
            { "trackID": 1, "mediaType": "video", "segments": [
              { "source": "clipA.mp4", "track": 1, "timeRange": { "start": "1", "duration": "1" }, "at": "0" } ] },
            { "trackID": 2, "mediaType": "audio", "segments": [
              { "source": "clipA.mp4", "track": 2, "timeRange": { "start": "1", "duration": "1" }, "at": "0" } ] }
          ] },
          "export": { "preset": "Passthrough"\(cuts) }
        }
        """
    }

    @Test func aTrackCutOffItsPacketGridIsNamedWithTheCut() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.document())
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4", "--progress", "none"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "passthrough: audio track 2 re-encoded: segments[0] of track 2 (clipA.mp4 track 2) starts at "
                + "1.000 s of its source, 896 samples past a packet boundary\n")
        #expect(FileManager.default.fileExists(atPath: scratch.file("out.mp4").path))
    }

    @Test func nearestPacketCopiesTheTrackAndPrintsNothing() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.document(cuts: #", "passthroughAudioCuts": "nearestPacket""#))
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4", "--progress", "none"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
    }

    @Test func anUnknownRuleIsRefusedAtItsPlace() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.document(cuts: #", "passthroughAudioCuts": "sometimes""#))
        let run = try await SpliceTool.run(["validate", "edit.json"], in: scratch.url)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(
            "edit.json:9:64: export.passthroughAudioCuts: 'sometimes' is not one of: exact, nearestPacket\n"), "\(run.stderr)")
    }
}
