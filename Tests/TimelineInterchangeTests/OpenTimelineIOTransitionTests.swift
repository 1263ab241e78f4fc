import Foundation
import Splice
import SpliceTestSupport
import Testing

/// OpenTimelineIO's transitions: `SMPTE_Dissolve` is the cross-dissolve on pictures and a crossfade on sound; the
/// incoming clip goes on a lane of its own and both clips play their handles over the transition's range.
@Suite("OpenTimelineIO: transitions")
struct OpenTimelineIOTransitionTests {
    /// V1: A[10, 34) ⟋6|6⟍ B[20, 44), a dissolve centred on the cut at frame 24; A1: the same on the sound.
    static let script = OpenTimelineIOScript.building("""
        kind = sys.argv[4]
        def dissolve():
            if kind == "dissolve":
                return otio.schema.Transition(transition_type="SMPTE_Dissolve", in_offset=RT(6, rate), out_offset=RT(6, rate))
            return otio.schema.Transition(name=kind, transition_type="Custom_Transition", in_offset=RT(6, rate), out_offset=RT(6, rate))
        timeline = otio.schema.Timeline(name="dissolve")
        video = otio.schema.Track(kind=otio.schema.TrackKind.Video)
        video.extend([clip(a, 10, 24), dissolve(), clip(b, 20, 24)])
        audio = otio.schema.Track(kind=otio.schema.TrackKind.Audio)
        audio.extend([clip(a, 10, 24), otio.schema.Transition(transition_type="SMPTE_Dissolve", in_offset=RT(6, rate), out_offset=RT(6, rate)), clip(b, 20, 24)])
        timeline.tracks.extend([video, audio])
        otio.adapters.write_to_file(timeline, path)
        print(timeline.duration().value)
        """)

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func smpteDissolveIsTheCrossDissolve() async throws {
        let scratch = try ScratchDirectory("otio-dissolve")
        defer { scratch.remove() }
        let (edit, printed) = try await OpenTimelineIOScript.buildTimeline(Self.script, in: scratch, ["dissolve"])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "48.0")
        let (loaded, timeline) = try await OpenTimelineIO.load(from: edit)
        let frame = InterchangeMedia.frameDuration
        let overlap = TimeRange(start: frame * 18, duration: frame * 12)
        #expect(timeline.transitions.map(\.timeRange) == [overlap, overlap])
        #expect(timeline.transitions.map(\.style) == [.crossDissolve, .crossDissolve])
        #expect(loaded.composition.duration == frame * 48)
        // Two video lanes (B's on top) and two audio lanes; A plays 6 frames past the cut, B starts 6 before it.
        let videoTracks = loaded.composition.tracks(withMediaType: .video)
        #expect(videoTracks.count == 2)
        #expect(loaded.audioMix?.crossfades.map(\.timeRange) == [overlap])

        let output = scratch.file("edit.mp4")
        try await loaded.makeExportSession(outputURL: output).export()
        let colours = try await InterchangeMedia.averageColours(of: output)
        let shown = try await InterchangeMedia.shownFrames(of: output)
        #expect(shown.count == 48)
        // Outside the dissolve: A's frames 10 + k, then B's frames k − 4, exactly.
        for k in Array(0...18) + Array(30..<48) where k < shown.count {
            let want = k <= 18 ? InterchangeMedia.Shown(blue: 64, frame: 10 + k) : InterchangeMedia.Shown(blue: 192, frame: k - 4)
            #expect(shown[k] == want, "output frame \(k)")
        }
        // Inside it, B's share grows linearly: blue = 64 + 128 × (k − 18) / 12, within encoding noise.
        for k in 19..<30 where k < colours.count {
            let expected = 64 + 128 * Double(k - 18) / 12
            #expect(abs(Double(colours[k][2]) - expected) <= 4, "frame \(k): blue \(colours[k][2]), expected \(expected)")
        }
    }

    /// Every track's items as OpenTimelineIO reads them: clips' source ranges and files, transitions' types, names
    /// and offsets, gaps' lengths, in frames at 24000/1001.
    static let describeScript = OpenTimelineIOScript.reading("""
        for track in timeline.tracks:
            row = [track.kind]
            for item in track:
                if isinstance(item, otio.schema.Transition):
                    row.append("%s(%s %s|%s)" % (item.transition_type, item.name, f(item.in_offset), f(item.out_offset)))
                elif isinstance(item, otio.schema.Clip):
                    row.append("%s[%s+%s]" % (item.media_reference.target_url, f(item.source_range.start_time), f(item.source_range.duration)))
                else:
                    row.append("gap %s" % f(item.source_range.duration))
            print(" ".join(row))
        print(f(timeline.duration()))
        """)

    /// Splice writes its transitions back as Transition objects on one Track (not as two overlapping tracks), which
    /// OpenTimelineIO reads as the timeline it came from; read again, they give the same composition, video
    /// composition and audio mix.
    @Test(.enabled(if: PythonVerifier.isAvailable), arguments: ["dissolve", "wipeleft"])
    func transitionsAreWrittenAsTransitions(kind: String) async throws {
        let scratch = try ScratchDirectory("otio-write-transitions")
        defer { scratch.remove() }
        let edit = try await OpenTimelineIOScript.buildTimeline(Self.script, in: scratch, [kind]).url
        let original = try await PythonVerifier.run(Self.describeScript, [edit.path])
        let picture = kind == "dissolve" ? "SMPTE_Dissolve( 6|6)" : "Custom_Transition(wipeleft 6|6)"
        #expect(original.split(separator: "\n").map(String.init) == [
            "Video a.mov[10+24] \(picture) b.mov[20+24]", "Audio a.mov[10+24] SMPTE_Dissolve( 6|6) b.mov[20+24]", "48",
        ], "\(original)")

        let (loaded, timeline) = try await OpenTimelineIO.load(from: edit)
        let written = try scratch.write("written.otio", try OpenTimelineIO.text(for: loaded, timeline: timeline, relativeTo: scratch.url))
        let described = try await PythonVerifier.run(Self.describeScript, [written.path])
        #expect(described == original, "\(described)")

        let (reread, _) = try await OpenTimelineIO.load(from: written)
        #expect(reread.composition == loaded.composition)
        #expect(reread.videoComposition == loaded.videoComposition)
        #expect(reread.audioMix == loaded.audioMix)
    }

    /// Documents whose dissolves put the incoming clip on the track below: written as one Track with Transitions
    /// (counted by OpenTimelineIO), read back as the same composition, video composition and audio mix.
    @Test(.enabled(if: PythonVerifier.isAvailable), arguments: ["slideshow", "vertical-phone-edit"])
    func documentsWithDissolvesRoundTripThroughTransitions(example: String) async throws {
        let scratch = try ScratchDirectory("otio-example-transitions")
        defer { scratch.remove() }
        let loaded = try await CompositionDocument.load(from: Fixture.example("\(example).json"))
        let written = try scratch.write("\(example).otio", try OpenTimelineIO.text(for: loaded, relativeTo: scratch.url))
        let counted = try await PythonVerifier.run(OpenTimelineIOScript.reading("""
            print(len(timeline.video_tracks()), len(list(timeline.find_children(descended_from_type=otio.schema.Transition))))
            """), [written.path])
        #expect(counted.trimmingCharacters(in: .whitespacesAndNewlines) == "1 2", "\(counted)")
        let (reread, _) = try await OpenTimelineIO.load(from: written)
        #expect(reread.composition == loaded.composition)
        #expect(reread.videoComposition == loaded.videoComposition)
        #expect(reread.audioMix == loaded.audioMix)
    }

    @Test(.enabled(if: PythonVerifier.isAvailable))
    func customTransitionsMapToTheCatalogueOrAreRefusedByName() async throws {
        let scratch = try ScratchDirectory("otio-wipe")
        defer { scratch.remove() }
        let wipe = try await OpenTimelineIOScript.buildTimeline(Self.script, named: "wipe.otio", in: scratch, ["wipeleft"]).url
        let (loaded, timeline) = try await OpenTimelineIO.load(from: wipe)
        #expect(timeline.transitions.first?.style == .wipeLeft)
        #expect(loaded.videoComposition?.instructions.compactMap(\.transition).map(\.style) == [.wipeLeft])

        let page = scratch.file("page.otio")
        _ = try await PythonVerifier.run(Self.script, [page.path, "a.mov", "b.mov", "PageCurl"])
        let error = try #require(throws: DocumentError.self) { try OpenTimelineIO.read(from: page) }
        #expect(error.problems.map(\.path.description) == ["tracks.children[0].children[1]"])
        #expect(error.problems.first?.message.hasPrefix("custom transition 'PageCurl' has no equivalent in Splice's transitions") == true)
    }
}
