import Composition
import Export
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing
import VideoComposition

/// Layer effects in documents: the short form's `clips[i].effects` (constant, ramped over the clip, `.cube` files
/// relative to the document), their problems at their paths, the expanded form round trip, and
/// `Examples/effects-tour.json` loaded and checked as export checks it (clipA and clipB: 640x360, 4 s).
@Suite("Documents: layer effects")
struct EffectDocumentTests {
    static let cube = "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"

    @Test func shortFormEffectsBecomeLayerEffectsOnEveryInstructionOfTheClip() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.file("looks"), withIntermediateDirectories: true)
        let lut = try scratch.write("looks/identity.cube", Self.cube)
        let url = try scratch.write("doc.json", """
            { "version": 1,
              "clips": [
                { "source": "clipA.mp4", "effects": [ { "type": "brightness", "value": 0.1 }, { "type": "lookupTable", "file": "looks/identity.cube" } ],
                  "transition": { "type": "wipeleft", "duration": "1s" } },
                { "source": "clipB.mp4", "effects": [ { "type": "blur", "value": 0, "to": 4 } ] }
              ] }
            """)
        let loaded = try await CompositionDocument.load(from: url)
        let video = try #require(loaded.videoComposition)
        #expect(video.instructions.count == 3)
        let first = video.instructions[0].layerInstructions[0]
        #expect(first.effects == [.constant(.brightness, 0.1), .lookupTable(lut.standardizedFileURL)])
        // The wipe draws both clips with their own effects.
        let wipe = video.instructions[1].layerInstructions
        #expect(wipe.map(\.effects.count) == [2, 1])
        // clipB is on screen [3 s, 7 s): its blur ramps 0 → 4 over that time, through the wipe.
        let last = video.instructions[2].layerInstructions[0]
        #expect(wipe[1].effect(.blur, at: .ms(3000)) == 0)
        #expect(last.effect(.blur, at: .ms(5000)) == 2)
        #expect(last.effect(.blur, at: .ms(7000)) == 4)
        #expect(video.validate(for: loaded.composition).isEmpty)

        // The expanded form carries them and loads back to the same models.
        let full = try scratch.write("full.json", try loaded.expandedJSON())
        let reloaded = try await CompositionDocument.load(from: full)
        #expect(reloaded.videoComposition == loaded.videoComposition)
    }

    @Test func fullFormLookupTablePathsAreRelativeToTheDocument() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let lut = try scratch.write("look.cube", Self.cube)
        let url = try scratch.write("full.json", """
            { "version": 1,
              "composition": { "tracks": [ { "trackID": 1, "mediaType": "video", "segments": [
                  { "source": "clipA.mp4", "track": 1, "timeRange": { "start": "0", "duration": "2" }, "at": "0" } ] } ] },
              "videoComposition": { "renderSize": { "width": 640, "height": 360 }, "frameDuration": "1/30",
                "instructions": [ { "timeRange": { "start": "0s", "duration": "2s" },
                  "layerInstructions": [ { "trackID": 1, "effects": [ { "type": "lookupTable", "file": "look.cube" },
                    { "type": "contrast", "keyframes": [ { "time": "1s", "value": 1.5 } ] } ] } ] } ] } }
            """)
        let loaded = try await CompositionDocument.load(from: url)
        let layer = try #require(loaded.videoComposition?.instructions.first?.layerInstructions.first)
        #expect(layer.effects.first == .lookupTable(lut.standardizedFileURL))
        #expect(layer.effect(.contrast, at: .ms(500)) == 1)
        #expect(layer.effect(.contrast, at: .ms(1500)) == 1.5)
    }

    /// The model's own validation of a full-form effect lands on the effect's field: `value`, `keyframes` or `file`.
    @Test(arguments: [
        (#"{ "type": "saturation", "value": 4 }"#, "value"),
        (#"{ "type": "blur", "keyframes": [ { "time": "1s", "value": -1 } ] }"#, "keyframes"),
        (#"{ "type": "lookupTable", "file": "missing.cube" }"#, "file"),
    ])
    func fullFormIssuesPointAtTheEffect(effect: String, field: String) async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let url = try scratch.write("full.json", """
            { "version": 1,
              "composition": { "tracks": [ { "trackID": 1, "mediaType": "video", "segments": [
                  { "source": "clipA.mp4", "track": 1, "timeRange": { "start": "0", "duration": "2" }, "at": "0" } ] } ] },
              "videoComposition": { "renderSize": { "width": 640, "height": 360 }, "frameDuration": "1/30",
                "instructions": [ { "timeRange": { "start": "0s", "duration": "2s" },
                  "layerInstructions": [ { "trackID": 1, "effects": [ { "type": "brightness", "value": 0.1 }, \(effect) ] } ] } ] } }
            """)
        do {
            _ = try await CompositionDocument.load(from: url)
            Issue.record("\(effect) loaded without a problem")
        } catch let error as DocumentError {
            #expect(error.problems.map(\.path.description)
                    == ["videoComposition.instructions[0].layerInstructions[0].effects[1].\(field)"], "\(error)")
        }
    }

    @Test(arguments: [
        (#"{ "type": "glow", "value": 1 }"#, "clips[0].effects[0].type", "'glow' is not an effect"),
        (#"{ "type": "saturation", "value": 4 }"#, "clips[0].effects[0].value", "4.0 gain is outside 0.0…3.0"),
        (#"{ "type": "blur", "value": 1, "to": -2 }"#, "clips[0].effects[0].to", "-2.0 canvas pixels (sigma) is outside 0.0…256.0"),
        (#"{ "type": "vignette" }"#, "clips[0].effects[0].value", "a vignette effect needs 'value' (radians)"),
        (#"{ "type": "lookupTable", "file": "bad.cube" }"#, "clips[0].effects[0].file", "bad.cube line 2: expected 3 numbers, found '0 0'"),
        (#"{ "type": "lookupTable", "file": "none.cube" }"#, "clips[0].effects[0].file", "none.cube: does not exist"),
    ])
    func problemsAreReportedAtTheirPaths(effect: String, path: String, message: String) async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        _ = try scratch.write("bad.cube", "LUT_3D_SIZE 2\n0 0\n")
        let url = try scratch.write("doc.json", #"{ "version": 1, "clips": [ { "source": "clipA.mp4", "effects": [ "# + effect + #" ] } ] }"#)
        do {
            _ = try await CompositionDocument.load(from: url)
            Issue.record("\(effect) loaded without a problem")
        } catch let error as DocumentError {
            #expect(error.problems.count == 1, "\(error)")
            let problem = try #require(error.problems.first)
            #expect(problem.path.description == path, "\(error)")
            #expect(problem.message.contains(message), "\(problem.message)")
        }
    }

    /// The example loads, validates, and passes every check export makes before writing (its graphs compiled,
    /// the filters it needs present); the expanded form names each effect's filter.
    @Test func effectsTourExampleIsValidAndExportable() async throws {
        let loaded = try await CompositionDocument.load(from: Fixture.example("effects-tour.json"))
        let video = try #require(loaded.videoComposition)
        #expect(video.validate(for: loaded.composition).isEmpty)
        let kinds = Set(video.instructions.flatMap { $0.layerInstructions.flatMap { $0.effects.map { $0.parameter?.rawValue ?? "lookupTable" } } })
        #expect(kinds == ["lookupTable", "vignette", "saturation", "brightness", "sharpen", "blur", "temperature", "exposure"])
        #expect(video.instructions.compactMap(\.transition?.style) == [.wipeLeft, .circleOpen])
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("effects-tour-\(UUID().uuidString).mp4")
        let session = loaded.makeExportSession(outputURL: output)
        try await loaded.checkExport(session)
        let graph = try session.filterGraphDescription()
        for filter in ["lut3d=file=", "vignette=angle=", "eq=saturation=", "eq=brightness=", "unsharp=", "gblur=sigma=",
                       "colortemperature=temperature=", "exposure=exposure=", "xfade=transition=wipeleft"] {
            #expect(graph.contains(filter), "the graph lacks \(filter)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
