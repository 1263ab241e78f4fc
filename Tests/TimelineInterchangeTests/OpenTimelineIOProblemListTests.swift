import Foundation
import Splice
import SpliceTestSupport
import Testing

/// A timeline with many problems is refused with all of them in one error, in file order: every missing file and
/// MissingReference, every unsupported effect by name, every unknown schema or version — none hidden behind the
/// first. Dropping unsupported effects explicitly leaves the others.
@Suite("OpenTimelineIO: every problem at once")
struct OpenTimelineIOProblemListTests {
    static let range = OpenTimelineIOReadingTests.range

    /// Each child on its own line (the track's children start on line 5): a clip whose file is missing and which is
    /// blurred, a MissingReference with a glow, a `Clip.3`, a vignetted gap, an unknown `Wipe.1`, a clip whose file
    /// exists (`a.mov`) with an unknown schema among its markers.
    static let children = [
        #"{ "OTIO_SCHEMA": "Clip.2", "name": "one", "source_range": \#(range(0, 24)), "effects": [ { "OTIO_SCHEMA": "Effect.1", "effect_name": "Blur" } ], "media_references": { "DEFAULT_MEDIA": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "nowhere.mov" } } },"#,
        #"{ "OTIO_SCHEMA": "Clip.1", "name": "two", "source_range": \#(range(0, 24)), "effects": [ { "OTIO_SCHEMA": "Effect.1", "effect_name": "Glow" } ], "media_reference": { "OTIO_SCHEMA": "MissingReference.1" } },"#,
        #"{ "OTIO_SCHEMA": "Clip.3", "source_range": \#(range(0, 24)) },"#,
        #"{ "OTIO_SCHEMA": "Gap.1", "source_range": \#(range(0, 12)), "effects": [ { "OTIO_SCHEMA": "Effect.1", "effect_name": "Vignette" } ] },"#,
        #"{ "OTIO_SCHEMA": "Wipe.1" },"#,
        #"{ "OTIO_SCHEMA": "Clip.1", "name": "three", "source_range": \#(range(0, 24)), "markers": [ { "OTIO_SCHEMA": "Flag.1" } ], "media_reference": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "a.mov" } }"#,
    ].joined(separator: "\n")

    @Test func everyProblemIsListedInOneErrorInFileOrder() async throws {
        let scratch = try ScratchDirectory("otio-problems")
        defer { scratch.remove() }
        _ = try scratch.write("a.mov", "not read: the timeline is refused before its media are probed")
        let edit = try scratch.write("edit.otio", OpenTimelineIOReadingTests.timeline(children: Self.children))
        let clips = "tracks.children[0].children"
        let missing = scratch.file("nowhere.mov").standardizedFileURL.path
        do {
            _ = try await OpenTimelineIO.load(from: edit)
            Issue.record("a timeline with six problems loaded")
        } catch let error as DocumentError {
            #expect(error.problems.map(\.description) == [
                "\(clips)[0].effects[0]: effect 'Blur' is not one Splice renders here (LinearTimeWarp and FreezeFrame on clips are); drop unsupported effects explicitly to render without it",
                "\(clips)[0].media_references.DEFAULT_MEDIA.target_url: no such file 'nowhere.mov' (\(missing))",
                "\(clips)[1].effects[0]: effect 'Glow' is not one Splice renders here (LinearTimeWarp and FreezeFrame on clips are); drop unsupported effects explicitly to render without it",
                "\(clips)[1].media_reference: 'two' has no media (MissingReference): link it to its file",
                "\(clips)[2].OTIO_SCHEMA: schema version 'Clip.3' is not one Splice reads (it reads Clip.1, Clip.2)",
                "\(clips)[3].effects[0]: effect 'Vignette' is not one Splice renders here (LinearTimeWarp and FreezeFrame on clips are); drop unsupported effects explicitly to render without it",
                "\(clips)[4].OTIO_SCHEMA: unknown schema 'Wipe.1': Splice reads \(Self.knownSchemas)",
                "\(clips)[5].markers[0].OTIO_SCHEMA: unknown schema 'Flag.1': Splice reads \(Self.knownSchemas)",
            ])
            // One child per line from line 5.
            #expect(error.problems.map(\.line) == [5, 5, 6, 6, 7, 8, 9, 10])
        }

        // Dropping unsupported effects leaves the other five problems, and lists the effects it would drop.
        do {
            _ = try await OpenTimelineIO.load(from: edit, options: .init(dropsUnsupportedEffects: true))
            Issue.record("a timeline with missing media loaded")
        } catch let error as DocumentError {
            #expect(error.problems.map(\.path.description) == [
                "\(clips)[0].media_references.DEFAULT_MEDIA.target_url", "\(clips)[1].media_reference", "\(clips)[2].OTIO_SCHEMA",
                "\(clips)[4].OTIO_SCHEMA", "\(clips)[5].markers[0].OTIO_SCHEMA",
            ])
        }
    }

    /// Effects on a Track or a Stack are refused by name; a time effect there even when unsupported effects may be
    /// dropped (leaving it out would move every later time).
    @Test func effectsOnTracksAndStacksAreRefusedByName() throws {
        let scratch = try ScratchDirectory("otio-track-effects")
        defer { scratch.remove() }
        let clip = #"{ "OTIO_SCHEMA": "Clip.1", "source_range": \#(Self.range(0, 24)), "media_reference": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "a.mov" } }"#
        let edit = try scratch.write("edit.otio", """
            { "OTIO_SCHEMA": "Timeline.1", "tracks": { "OTIO_SCHEMA": "Stack.1",
              "effects": [ { "OTIO_SCHEMA": "Effect.1", "effect_name": "ColorCorrect" } ],
              "children": [
                { "OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [ \(clip) ],
                  "effects": [ { "OTIO_SCHEMA": "LinearTimeWarp.1", "effect_name": "", "time_scalar": 2.0 } ] } ] } }
            """)
        let error = try #require(throws: DocumentError.self) { try OpenTimelineIO.read(from: edit) }
        #expect(error.problems.map(\.description) == [
            "tracks.effects[0]: effect 'ColorCorrect' is not one Splice renders here (LinearTimeWarp and FreezeFrame on clips are); drop unsupported effects explicitly to render without it",
            "tracks.children[0].effects[0]: a LinearTimeWarp on a Track is not read: Splice retimes clips, so put it on each of its clips",
        ])
        let dropping = try #require(throws: DocumentError.self) {
            try OpenTimelineIO.read(from: edit, options: .init(dropsUnsupportedEffects: true))
        }
        #expect(dropping.problems.map(\.path.description) == ["tracks.children[0].effects[0]"])
    }

    /// Every schema the reader knows, as its messages list them.
    static let knownSchemas = [
        "Clip", "Effect", "ExternalReference", "FreezeFrame", "Gap", "GeneratorReference", "ImageSequenceReference",
        "LinearTimeWarp", "Marker", "MissingReference", "RationalTime", "SerializableCollection", "Stack", "TimeRange",
        "Timeline", "Track", "Transition",
    ].joined(separator: ", ")
}
