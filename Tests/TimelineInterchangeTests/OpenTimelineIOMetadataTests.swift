import Foundation
import Splice
import SpliceTestSupport
import Testing

/// The `metadata` other tools put on clips and tracks is kept in the document (`metadata` of its segments and
/// tracks) and written back: `.otio` → document → `.otio` gives the same metadata, compared by OpenTimelineIO.
@Suite("OpenTimelineIO: item metadata")
struct OpenTimelineIOMetadataTests {
    /// V1 (metadata: a lane name): A[10, 34) with a studio's shot record, gap 6, B[0, 12) without metadata; A1 (a
    /// mix note): A's sound for 24 frames, tagged.
    static let script = OpenTimelineIOScript.building(rate: "24", """
        timeline = otio.schema.Timeline(name="metadata")
        video = otio.schema.Track(kind=otio.schema.TrackKind.Video, metadata={"lane": "picture"})
        video.extend([clip(a, 10, 24, studio={"shot": "A042", "take": 3, "circled": True, "tags": ["hero", "wide"]}),
                      otio.schema.Gap(source_range=TR(RT(0, 24), RT(6, 24))), clip(b, 0, 12)])
        audio = otio.schema.Track(kind=otio.schema.TrackKind.Audio, metadata={"mix": {"note": "dialogue", "level": -3.5}})
        audio.append(clip(a, 0, 24, sound={"mic": "boom"}))
        timeline.tracks.extend([video, audio])
        otio.adapters.write_to_file(timeline, path)
        """)

    /// Prints each track's and clip's metadata other than Splice's, as OpenTimelineIO reads it.
    static let describeScript = OpenTimelineIOScript.reading(rate: "24", """
        import json
        def other(item):
            metadata = json.loads(otio.core.serialize_json_to_string(item))["metadata"]
            return json.dumps({k: v for k, v in metadata.items() if k != "splice"}, sort_keys=True)
        for track in timeline.tracks:
            print(track.kind, other(track))
            for item in track:
                if isinstance(item, otio.schema.Clip):
                    print(" ", item.media_reference.target_url, other(item))
        """)

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func clipAndTrackMetadataSurviveTheDocument() async throws {
        let scratch = try ScratchDirectory("otio-metadata")
        defer { scratch.remove() }
        let edit = try await OpenTimelineIOScript.buildTimeline(Self.script, in: scratch, frameDuration: MediaTime(value: 1, timescale: 24)).url
        let expected = [
            #"Video {"lane": "picture"}"#,
            #"  a.mov {"studio": {"circled": true, "shot": "A042", "tags": ["hero", "wide"], "take": 3}}"#,
            #"  b.mov {}"#,
            #"Audio {"mix": {"level": -3.5, "note": "dialogue"}}"#,
            #"  a.mov {"sound": {"mic": "boom"}}"#,
        ]
        let original = try await PythonVerifier.run(Self.describeScript, [edit.path])
        #expect(original.split(separator: "\n").map(String.init) == expected, "\(original)")

        // .otio → document: the segments and tracks carry the metadata.
        let (loaded, _) = try await OpenTimelineIO.load(from: edit)
        let tracks = loaded.document.composition.tracks
        #expect(tracks.map(\.metadata) == [
            DocumentMetadata(["lane": .string("picture")]),
            DocumentMetadata(["mix": .object(["note": .string("dialogue"), "level": .number(-3.5)])]),
        ])
        #expect(tracks[0].segments.map(\.metadata) == [
            DocumentMetadata(["studio": .object([
                "shot": .string("A042"), "take": .number(3), "circled": .bool(true), "tags": .array([.string("hero"), .string("wide")]),
            ])]),
            nil,
        ])
        let json = try scratch.write("edit.json", try loaded.expandedJSON(relativeTo: scratch.url))
        let document = try await CompositionDocument.load(from: json)
        #expect(document.document.composition.tracks == tracks)

        // document → .otio → document: the same metadata, read by OpenTimelineIO and by Splice.
        let back = try scratch.write("back.otio", try OpenTimelineIO.text(for: document, relativeTo: scratch.url))
        let written = try await PythonVerifier.run(Self.describeScript, [back.path])
        #expect(written.split(separator: "\n").map(String.init) == expected, "\(written)")
        let (reread, _) = try await OpenTimelineIO.load(from: back)
        #expect(reread.document.composition.tracks.map(\.metadata) == tracks.map(\.metadata))
        #expect(reread.document.composition.tracks.map { $0.segments.map(\.metadata) } == tracks.map { $0.segments.map(\.metadata) })
    }
}
