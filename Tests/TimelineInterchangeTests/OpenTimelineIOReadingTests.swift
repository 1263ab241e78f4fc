import Foundation
import Splice
import SpliceTestSupport
import Testing

/// Timelines built with OpenTimelineIO's own Python API, read by Splice and rendered: every output frame shows the
/// source frame the timeline says (framecode clips), durations to the frame and the sample.
@Suite("OpenTimelineIO: reading")
struct OpenTimelineIOReadingTests {
    /// Builds, with `opentimelineio`, at NTSC rates written three ways (23.976, 24000/1001 as a double, 24000/1001):
    /// V1: A[10, 34) · gap 12 · B[5, 29) · A from 40 at 2× for 12 · A frozen at 50 for 6; A1: A's sound for 54 frames,
    /// then B's for 24.
    static let editScript = OpenTimelineIOScript.building("""
        def clip(name, url, start, duration, rate=23.976):
            return otio.schema.Clip(name=name, media_reference=media(url), source_range=TR(RT(start, rate), RT(duration, rate)))
        timeline = otio.schema.Timeline(name="edit", global_start_time=RT(86400, 24), metadata={"studio": {"shot": "A042"}})
        video = otio.schema.Track(name="V1", kind=otio.schema.TrackKind.Video)
        timeline.tracks.append(video)
        video.append(clip("a", a, 10, 24))
        gap = otio.schema.Gap(source_range=TR(RT(0, rate), RT(12, rate)))
        gap.markers.append(otio.schema.Marker(name="in the gap", marked_range=TR(RT(3, rate), RT(0, rate))))
        video.append(gap)
        video.append(clip("b", b, 5, 24, rate=rate))
        fast = clip("a fast", a, 40, 12)
        fast.effects.append(otio.schema.LinearTimeWarp(time_scalar=2.0))
        fast.markers.append(otio.schema.Marker(name="fast", marked_range=TR(RT(46, 23.976), RT(4, 23.976)), color="RED"))
        video.append(fast)
        frozen = clip("a frozen", a, 50, 6)
        frozen.effects.append(otio.schema.FreezeFrame())
        video.append(frozen)
        audio = otio.schema.Track(name="A1", kind=otio.schema.TrackKind.Audio)
        timeline.tracks.append(audio)
        audio.append(clip("a sound", a, 0, 54))
        audio.append(clip("b sound", b, 0, 24))
        timeline.tracks.markers.append(otio.schema.Marker(name="top", marked_range=TR(RT(5, rate), RT(2, rate)), comment="c"))
        otio.adapters.write_to_file(timeline, path)
        print(timeline.duration().value, timeline.duration().rate)
        """)

    /// What each output frame must show.
    static let expected: [InterchangeMedia.Shown] =
        (10..<34).map { .init(blue: 64, frame: $0) }
        + Array(repeating: .black, count: 12)
        + (5..<29).map { .init(blue: 192, frame: $0) }
        + (0..<12).map { .init(blue: 64, frame: 40 + 2 * $0) }
        + Array(repeating: .init(blue: 64, frame: 50), count: 6)

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func timelineBuiltByOpenTimelineIORendersFrameExact() async throws {
        let scratch = try ScratchDirectory("otio-read")
        defer { scratch.remove() }
        let (edit, printed) = try await OpenTimelineIOScript.buildTimeline(Self.editScript, in: scratch)
        #expect(printed.hasPrefix("78.0 23.976"))

        let (loaded, timeline) = try await OpenTimelineIO.load(from: edit)
        #expect(timeline.name == "edit")
        #expect(timeline.metadata == #"{"studio":{"shot":"A042"}}"#)
        #expect(timeline.globalStartTime == MediaTime(seconds: 3600))
        let frame = InterchangeMedia.frameDuration
        // Markers in composition time: the top one as written, the gap's from the gap's start (frame 24), the
        // sped-up clip's media frame 46 where it plays (60 + (46 − 40) / 2 = 63), its 4 frames of media played in 2.
        #expect(timeline.markers.map(\.name) == ["top", "in the gap", "fast"])
        #expect(timeline.markers.map(\.timeRange) == [
            TimeRange(start: frame * 5, duration: frame * 2), TimeRange(start: frame * 27, duration: .zero),
            TimeRange(start: frame * 63, duration: frame * 2),
        ])
        #expect(timeline.markers.map(\.comment) == ["c", nil, nil])
        #expect(loaded.composition.duration == frame * 78)
        let video = try #require(loaded.composition.tracks(withMediaType: .video).first)
        #expect(video.segments.map(\.timeMapping.target.start) == [0, 24, 36, 60, 72].map { frame * $0 })
        #expect(video.segments[0].timeMapping.source == TimeRange(start: frame * 10, duration: frame * 24))
        #expect(video.segments[1].isEmpty)
        #expect(video.segments[3].timeMapping.source == TimeRange(start: frame * 40, duration: frame * 24))
        #expect(video.segments[4].timeEffect == .freezeFrame(.silence))

        let output = scratch.file("edit.mp4")
        let session = loaded.makeExportSession(outputURL: output)
        try await session.export()
        let shown = try await InterchangeMedia.shownFrames(of: output)
        #expect(shown.count == 78)
        for (index, (got, want)) in zip(shown, Self.expected).enumerated() where got != want {
            Issue.record("output frame \(index) shows \(got), expected \(want)")
        }
        // 78 frames of 1001/24000 s: 3.253250 s, the sound to the sample (156 156 samples at 48 kHz).
        let exported = try await Asset.load(from: output)
        #expect(exported.tracks(withMediaType: .audio).first?.timeRange.duration == frame * 78)
        #expect(try await InterchangeMedia.probedDuration(of: output, stream: "v") == "3.253250")
    }

    @Test func missingMediaIsListedInOneErrorAtItsPlaces() throws {
        let scratch = try ScratchDirectory("otio-missing")
        defer { scratch.remove() }
        let edit = try scratch.write("edit.otio", Self.timeline(children: """
            { "OTIO_SCHEMA": "Clip.2", "name": "one", "source_range": \(Self.range(0, 24)),
              "media_references": { "DEFAULT_MEDIA": { "OTIO_SCHEMA": "MissingReference.1" } },
              "active_media_reference_key": "DEFAULT_MEDIA" },
            { "OTIO_SCHEMA": "Clip.1", "name": "two", "source_range": \(Self.range(0, 24)),
              "media_reference": { "OTIO_SCHEMA": "MissingReference.1" } }
            """))
        let error = try #require(throws: DocumentError.self) { try OpenTimelineIO.read(from: edit) }
        #expect(error.problems.map(\.description) == [
            "tracks.children[0].children[0].media_references.DEFAULT_MEDIA: 'one' has no media (MissingReference): link it to its file",
            "tracks.children[0].children[1].media_reference: 'two' has no media (MissingReference): link it to its file",
        ])
        #expect(error.problems.map(\.line) == [6, 9])
    }

    @Test func unknownSchemasAndVersionsAreNamedWithTheirPlace() throws {
        let scratch = try ScratchDirectory("otio-schema")
        defer { scratch.remove() }
        let edit = try scratch.write("edit.otio", Self.timeline(children: """
            { "OTIO_SCHEMA": "Clip.3", "source_range": \(Self.range(0, 24)) },
            { "OTIO_SCHEMA": "Wipe.1" }
            """))
        let error = try #require(throws: DocumentError.self) { try OpenTimelineIO.read(from: edit) }
        #expect(error.problems.count == 2)
        #expect(error.problems.first?.description
                == "tracks.children[0].children[0].OTIO_SCHEMA: schema version 'Clip.3' is not one Splice reads (it reads Clip.1, Clip.2)")
        #expect(error.problems.last?.description.hasPrefix("tracks.children[0].children[1].OTIO_SCHEMA: unknown schema 'Wipe.1'") == true)
        #expect(error.description.hasPrefix("edit.otio:5:"))
    }

    @Test func unsupportedEffectsAreRefusedByNameOrDroppedWhenAsked() throws {
        let scratch = try ScratchDirectory("otio-effect")
        defer { scratch.remove() }
        let edit = try scratch.write("edit.otio", Self.timeline(children: """
            { "OTIO_SCHEMA": "Clip.2", "name": "blurred", "source_range": \(Self.range(0, 24)),
              "effects": [ { "OTIO_SCHEMA": "Effect.1", "effect_name": "Blur" } ],
              "media_references": { "DEFAULT_MEDIA": { "OTIO_SCHEMA": "ExternalReference.1", "target_url": "a.mov" } } }
            """))
        let error = try #require(throws: DocumentError.self) { try OpenTimelineIO.read(from: edit) }
        #expect(error.problems.map(\.path.description) == ["tracks.children[0].children[0].effects[0]"])
        #expect(error.problems.first?.message.hasPrefix("effect 'Blur' is not one Splice renders") == true)
        let read = try OpenTimelineIO.read(from: edit, options: .init(dropsUnsupportedEffects: true))
        #expect(read.droppedEffects.map(\.description) == ["tracks.children[0].children[0].effects[0]: effect 'Blur' dropped"])
        #expect(read.document.composition.tracks.first?.segments.count == 1)
    }

    @Test func aDamagedFileGetsLineAndColumn() throws {
        let scratch = try ScratchDirectory("otio-damaged")
        defer { scratch.remove() }
        let edit = try scratch.write("edit.otio", "{\n  \"OTIO_SCHEMA\": \"Timeline.1\",\n  \"tracks\": [1, 2,]\n}\n")
        let error = try #require(throws: DocumentError.self) { try OpenTimelineIO.read(from: edit) }
        #expect(error.description == "edit.otio:3:19: JSON syntax error: trailing comma before ']'")
    }

    /// A timeline with one video track holding `children` (JSON text); the track starts on line 5.
    static func timeline(children: String) -> String {
        """
        { "OTIO_SCHEMA": "Timeline.1", "name": "t",
          "tracks": { "OTIO_SCHEMA": "Stack.1",
            "children": [
              { "OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [
                \(children)
              ] }
            ] } }
        """
    }

    /// A TimeRange of whole frames at 24 fps, as JSON text.
    static func range(_ start: Int, _ duration: Int) -> String {
        #"{ "OTIO_SCHEMA": "TimeRange.1", "start_time": { "OTIO_SCHEMA": "RationalTime.1", "rate": 24.0, "value": \#(start) }, "#
            + #""duration": { "OTIO_SCHEMA": "RationalTime.1", "rate": 24.0, "value": \#(duration) } }"#
    }
}
