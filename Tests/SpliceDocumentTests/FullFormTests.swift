import AudioMix
import Composition
import Export
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing
import VideoComposition

/// Full-form documents compile with AVFoundation's editing calls, and the models' validation issues are reported at
/// their document paths.
@Suite("Full form")
struct FullFormTests {
    /// A composition of clipA [0, 4) on video track 1; `instructions` is the JSON array of instructions.
    static func document(instructions: String, extra: String = "") -> String {
        """
        {
          "version": 1,
          "composition": { "tracks": [
            { "trackID": 1, "mediaType": "video", "segments": [ { "source": "clipA.mp4", "track": "video", "at": "0s" } ] }
          ] },
          "videoComposition": {
            "renderSize": { "width": 640, "height": 360 }, "frameDuration": "1/30",
            "instructions": \(instructions)
          }\(extra)
        }
        """
    }

    @Test func segmentsCompileToInsertsAndScales() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "composition": { "tracks": [
                { "trackID": 5, "mediaType": "video", "segments": [
                  { "source": "clipA.mp4", "timeRange": { "start": "1s", "duration": "2s" }, "at": "0s", "toDuration": "1s" },
                  { "source": "clipB.mp4", "track": 1, "timeRange": { "start": "0s", "duration": "1s" }, "at": "2s" },
                  { "source": "clipB.mp4", "timeRange": { "start": "3s", "duration": "1s" } }
                ] },
                { "trackID": 2, "mediaType": "audio", "preferredVolume": 0.5, "segments": [ { "source": "music.m4a", "at": "3s" } ] }
              ] } }
            """)
        #expect(loaded.form == .full)
        let video = try #require(loaded.composition.track(withTrackID: 5))
        #expect(video.segments.map(\.timeMapping.target) == [.ms(0, 1000), .ms(1000, 2000), .ms(2000, 3000), .ms(3000, 4000)])
        #expect(video.segments.map(\.isEmpty) == [false, true, false, false], "a gap between segments is left empty")
        #expect(video.segments[0].timeMapping.source == .ms(1000, 3000), "played at twice the speed")
        #expect(video.segments[3].timeMapping.source == .ms(3000, 4000), "no \"at\": appended at the track's end")
        let audio = try #require(loaded.composition.track(withTrackID: 2))
        #expect(audio.preferredVolume == 0.5)
        #expect(audio.segments.map(\.timeMapping.target) == [.ms(0, 3000), .ms(3000, 11000)])
        #expect(loaded.videoComposition == nil && loaded.audioMix == nil)
    }

    @Test func framesNeedTheVideoCompositionsRate() async throws {
        let withRate = try await TestDocument.load(Self.document(instructions: #"[ { "timeRange": { "start": "0f", "duration": "240f" }, "layerInstructions": [ { "trackID": 1 } ] } ]"#)
            .replacingOccurrences(of: #""frameDuration": "1/30""#, with: #""frameDuration": "1/60""#))
        #expect(withRate.videoComposition?.instructions.first?.timeRange == .ms(0, 4000), "240 frames at 60 fps")
        let problems = try await TestDocument.problems("""
            { "version": 1, "composition": { "tracks": [ { "trackID": 1, "mediaType": "audio", "segments": [ { "source": "music.m4a", "at": "90f" } ] } ] } }
            """)
        #expect(problems.map(\.description) == [
            "composition.tracks[0].segments[0].at: '90f' is not a time: frames need the composition's frame rate, which is not known here (write seconds instead)",
        ])
    }

    @Test func instructionGapIsReportedAtTheInstruction() async throws {
        let problems = try await TestDocument.problems(Self.document(instructions: """
            [
                  { "timeRange": { "start": "0s", "duration": "2s" }, "layerInstructions": [ { "trackID": 1 } ] },
                  { "timeRange": { "start": "2s", "duration": "59/30" }, "layerInstructions": [ { "trackID": 1 } ] },
                  { "timeRange": { "start": "4s", "duration": "1s" }, "layerInstructions": [ { "trackID": 1 } ] }
                ]
            """))
        #expect(problems.map(\.path.description) == ["videoComposition.instructions[2].timeRange"])
        #expect(problems.first?.message
            == "instruction 2 starts at 4.000 s (4/1) but instruction 1 ends at 3.967 s (119/30): nothing covers [3.967 s (119/30), 4.000 s (120/30))")
        let lines = Self.document(instructions: "[\n      {},\n      {},\n      { \"timeRange\": { \"start\": \"4s\"").split(separator: "\n", omittingEmptySubsequences: false)
        let column = lines[10].distance(from: lines[10].startIndex, to: try #require(lines[10].range(of: #"{ "start": "4s""#)).lowerBound) + 1
        #expect(problems.first?.line == 11 && problems.first?.column == column, "the timeRange object of instruction 2")
    }

    @Test func layerAndOverlayIssuesReachTheirFields() async throws {
        let problems = try await TestDocument.problems(Self.document(instructions: """
            [ { "timeRange": { "start": "0s", "duration": "4s" }, "layerInstructions": [
                    { "trackID": 1, "opacity": [ { "time": "1s", "value": 1.5 } ] },
                    { "trackID": 7 } ] } ]
            """, extra: """
            ,
              "audioMix": { "inputParameters": [ { "trackID": 1, "volume": [ { "time": "0s", "value": -1 } ] } ] }
            """))
        #expect(problems.map(\.path.description) == [
            "videoComposition.instructions[0].layerInstructions[0].opacity",
            "videoComposition.instructions[0].layerInstructions[1].trackID",
            "audioMix.inputParameters[0].trackID",
            "audioMix.inputParameters[0].volume",
        ])
        #expect(problems.map(\.line) == [9, 10, 12, 12])
        #expect(problems[1].message == "instruction 0, layer instruction for track 7: the composition has no track 7")
    }

    @Test func segmentProblemsArePointed() async throws {
        let problems = try await TestDocument.problems("""
            { "version": 1,
              "composition": { "tracks": [
                { "trackID": 1, "mediaType": "video", "segments": [
                  { "source": "clipA.mp4", "at": "2s" },
                  { "source": "clipB.mp4", "at": "1s" },
                  { "source": "clipB.mp4", "track": 9 },
                  { "source": "clipB.mp4", "track": "audio" },
                  { "source": "clipB.mp4", "timeRange": { "start": "3s", "duration": "2s" }, "at": "10s" }
                ] },
                { "trackID": 1, "mediaType": "audio", "segments": [] }
              ] },
              "export": { "preset": "640x480", "settings": {} } }
            """)
        #expect(problems.map(\.path.description) == [
            "composition.tracks[0].segments[1].at",
            "composition.tracks[0].segments[2].track",
            "composition.tracks[0].segments[3].track",
            "composition.tracks[0].segments[4].timeRange",
            "composition.tracks[1].trackID",
            "export.settings",
        ])
        #expect(problems[0].message
            == "starts at 1.000 s, before the previous segment of this track ends at 6.000 s (segments are in time order and do not overlap)")
        #expect(problems[1].message == "'clipB.mp4' has no track 9; it has tracks 1 (video), 2 (audio)")
        #expect(problems[4].message == "The composition already has a track with ID 1.")
        #expect(problems[5].message == "give either \"preset\" or \"settings\", not both")
    }

    @Test func exportSectionConveniences() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1,
              "composition": { "tracks": [ { "trackID": 1, "mediaType": "audio", "segments": [ { "source": "music.m4a" } ] } ] },
              "export": { "settings": { "video": null, "audio": { "bitRate": 96000 } }, "fileType": "m4a",
                          "timeRange": { "start": "1s", "duration": "00:00:02" }, "metadata": { "title": "T", "comment": "C" } } }
            """)
        #expect(loaded.export.settings == ExportSettings(video: nil, audio: AudioSettings(bitRate: 96_000)))
        #expect(loaded.export.fileType == .m4a)
        #expect(loaded.export.timeRange == .ms(1000, 3000))
        #expect(loaded.export.metadata == [MetadataItem(key: "title", value: "T"), MetadataItem(key: "comment", value: "C")])

        let crf = try await TestDocument.load("""
            { "version": 1, "composition": { "tracks": [] },
              "export": { "settings": { "video": { "rateControl": { "averageBitRate": 2000000 }, "encoderPreset": "fast" } } } }
            """)
        #expect(crf.export.settings?.video == VideoSettings(rateControl: .averageBitRate(2_000_000), encoderPreset: "fast"))
        #expect(crf.export.settings?.audio == AudioSettings())
    }

    /// The rate control written as Swift's synthesized `Codable` wrote it, and a preset by its full AVFoundation name,
    /// still load.
    @Test func exportSectionOlderForms() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1, "composition": { "tracks": [] },
              "export": { "settings": { "video": { "rateControl": { "constantQuality": { "_0": 20 } } } } } }
            """)
        #expect(loaded.export.settings?.video == VideoSettings(rateControl: .constantQuality(20)))
        let preset = try await TestDocument.load("""
            { "version": 1, "composition": { "tracks": [] }, "export": { "preset": "AVAssetExportPreset1280x720" } }
            """)
        #expect(preset.export.preset == .preset1280x720)
    }
}
