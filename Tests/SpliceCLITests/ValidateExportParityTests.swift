import Foundation
import SpliceTestSupport
import Testing

/// `splice validate` makes exactly the checks `splice export` makes before it writes (one code path,
/// `AssetExportSession.validate()`): for every refusal export can give before writing, validate gives the same
/// refusal first, at the same place in the document (line:column where the document has the value), and export
/// writes nothing.
@Suite("validate = export's checks")
struct ValidateExportParityTests {
    /// One refusal: a document (in a folder with the canonical clips linked), the output export is asked for, and the
    /// first line both commands must print.
    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var document: String
        var output: String
        var expected: String
        var testDescription: String { name }
    }

    /// A full-form document with one video track of clipA `[start, start + duration)` copied by passthrough.
    static func passthroughCut(start: String, duration: String, toDuration: String = "") -> String {
        """
        {
          "version": 1,
          "composition": { "tracks": [ { "trackID": 1, "mediaType": "video", "segments": [
            { "source": "clipA.mp4", "track": 1, "timeRange": { "start": "\(start)", "duration": "\(duration)" }, "at": "0"\(toDuration) }
          ] } ] },
          "export": { "preset": "Passthrough" }
        }
        """
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "container cannot hold the preset's codec",
            document: """
                { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
                  "export": { "preset": "HighestQuality", "fileType": "webm" } }
                """,
            output: "out.webm",
            expected: "edit.json:2:55: export.fileType: unsupported export settings: a .webm file cannot hold h264 video"),
        Refusal(
            name: "container cannot hold the subtitle format",
            document: """
                { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
                  "export": { "subtitleCodec": "subRip" } }
                """,
            output: "out.mp4",
            expected: "edit.json:2:32: export.subtitleCodec: unsupported export settings: a .mp4 file cannot hold subRip "
                + "subtitles; it holds movText"),
        Refusal(
            name: "passthrough cut ends inside B-frame reordering",
            document: passthroughCut(start: "0", duration: "0.1"),
            output: "out.mp4",
            expected: "edit.json:4:5: composition.tracks[0].segments[0]: passthrough is not possible: segments[0] of track 1 "
                + "(clipA.mp4 track 1) ends at 0.100 s of its source, inside pictures reordered for B-frames: the picture at "
                + "0.033 s is decoded after the cut picture at 0.100 s and may depend on it; end the segment at 0.033 s or "
                + "0.133 s instead, or re-encode"),
        Refusal(
            name: "passthrough cut starts off a key frame",
            document: passthroughCut(start: "0.5", duration: "1"),
            output: "out.mp4",
            expected: "edit.json:4:5: composition.tracks[0].segments[0]: passthrough is not possible: segments[0] of track 1 "
                + "(clipA.mp4 track 1) starts at 0.500 s of its source, not on a key frame (nearest key frames 0.000 s / "
                + "1.000 s); start the segment on a key frame or re-encode"),
        Refusal(
            name: "passthrough of a speed change",
            document: passthroughCut(start: "0", duration: "1", toDuration: ", \"toDuration\": \"2\""),
            output: "out.mp4",
            expected: "edit.json:4:5: composition.tracks[0].segments[0]: passthrough is not possible: segments[0] of track 1 "
                + "(clipA.mp4 track 1) plays at speed 0.5 from 0.000 s; speed changes need re-encoding"),
        Refusal(
            name: "settings out of range",
            document: """
                { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
                  "export": { "settings": { "audio": { "channelCount": 3 } } } }
                """,
            output: "out.mp4",
            expected: "edit.json:2:27: export.settings: unsupported export settings: channelCount 3 must be 1 (mono) or 2 (stereo)"),
        Refusal(
            name: "export time range outside the composition",
            document: """
                { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
                  "export": { "timeRange": { "start": "100", "duration": "1" } } }
                """,
            output: "out.mp4",
            expected: "edit.json:2:28: export.timeRange: invalid composition: the export time range "),
        Refusal(
            name: "audio-only container without audio",
            document: """
                { "version": 1, "composition": { "tracks": [ { "trackID": 1, "mediaType": "video", "segments": [
                  { "source": "clipA.mp4", "track": 1, "timeRange": { "start": "0", "duration": "1" }, "at": "0" } ] } ] } }
                """,
            output: "out.m4a",
            expected: "edit.json:1:1: invalid composition: a .m4a file holds audio only and the composition has no audio track with media"),
        Refusal(
            name: "smart rendering with concurrent segments",
            document: """
                { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
                  "export": { "smartRendering": true, "concurrentSegments": 2 } }
                """,
            output: "out.mp4",
            expected: "edit.json:2:61: export.concurrentSegments: unsupported export settings: concurrentSegments 2 cannot be "
                + "combined with smartRendering; set one of them only"),
        Refusal(
            name: "no segment at all",
            document: """
                { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
                  "export": { "concurrentSegments": 0 } }
                """,
            output: "out.mp4",
            expected: "edit.json:2:37: export.concurrentSegments: unsupported export settings: concurrentSegments 0 must be "
                + "at least 1 (nil or 1: one ordinary export)"),
    ]

    @Test(arguments: refusals)
    func validateGivesExportsRefusalFirst(_ refusal: Refusal) async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", refusal.document)
        let before = scratch.contents

        let validated = try await SpliceTool.run(["validate", "edit.json", "-o", refusal.output], in: scratch.url)
        #expect(validated.status == 1)
        let validateLine = validated.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(validateLine.hasPrefix(refusal.expected), "\(validated.stderr)")

        let exported = try await SpliceTool.run(["export", "edit.json", "-o", refusal.output, "--progress", "none"], in: scratch.url)
        #expect(exported.status == 1, "\(exported.stderr)")
        let exportLine = exported.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(exportLine == validateLine, "\(exported.stderr)")
        #expect(scratch.contents == before, "export wrote \(scratch.contents)")
    }

    /// A cut that export accepts validates, and validate with `-o` takes the container from the extension.
    @Test func cleanPassthroughCutIsValid() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", Self.passthroughCut(start: "1", duration: "0.3"))
        let validated = try await SpliceTool.run(["validate", "edit.json", "-o", "out.mp4"], in: scratch.url)
        #expect(validated.status == 0, "\(validated.stderr)")
        let exported = try await SpliceTool.run(["export", "edit.json", "-o", "out.mp4", "--progress", "none"], in: scratch.url)
        #expect(exported.status == 0, "\(exported.stderr)")
    }
}
