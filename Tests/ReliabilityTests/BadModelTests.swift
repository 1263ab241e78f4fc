import Foundation
import Testing
import Splice
@testable import SpliceDocument
import SpliceTestSupport

extension Reliability {
    /// Bad models and documents: invalid times, overflowing timescales, negative durations, huge render sizes, thousands
    /// of tracks, deeply nested JSON, wrong types — each a typed error naming the field, before any file is opened.
    ///
    /// The compositions here cut from a copy of clipA's description whose file does not exist: if the engine opened any
    /// source before checking the models, the error would be `sourceUnreadable`, not the model error expected.
    @Suite("Bad models and documents: typed errors naming the field, before any file is opened")
    struct BadModelTests {
        static let missing = URL(fileURLWithPath: "/nonexistent-splice-source/clipA.mp4")

        /// clipA's description, pointing at a file that does not exist.
        static func missingAsset() async throws -> Asset {
            var asset = try await Fixture.asset("canonical/clipA.mp4")
            asset.url = missing
            for index in asset.tracks.indices { asset.tracks[index].assetURL = missing }
            return asset
        }

        static func composition(seconds: Int64 = 2) async throws -> MutableComposition {
            var composition = MutableComposition()
            try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: seconds)), of: try await missingAsset(), at: .zero)
            return composition
        }

        /// One bad export request: what to break, and words the error must contain.
        struct Case: Sendable, CustomTestStringConvertible {
            var label: String
            var expected: [String]
            var change: @Sendable (inout Request) -> Void
            var testDescription: String { label }
        }

        struct Request {
            var composition: MutableComposition
            var video: MutableVideoComposition
            var settings: ExportSettings
            var timeRange = TimeRange(start: .zero, duration: .positiveInfinity)
            var fileLengthLimit: Int64?
        }

        static let cases: [Case] = [
            Case(label: "export range with an invalid start", expected: ["export time range"]) {
                $0.timeRange = TimeRange(start: .invalid, duration: MediaTime(seconds: 1))
            },
            Case(label: "export range with a negative duration", expected: ["export time range", "-1"]) {
                $0.timeRange = TimeRange(start: .zero, duration: MediaTime(seconds: -1))
            },
            Case(label: "export range before zero", expected: ["export time range"]) {
                $0.timeRange = TimeRange(start: MediaTime(seconds: -5), duration: MediaTime(seconds: 1))
            },
            Case(label: "frame duration invalid (timescale 0)", expected: ["frame duration"]) {
                $0.video.frameDuration = MediaTime(value: 1, timescale: 0)
            },
            Case(label: "frame duration negative", expected: ["frame duration", "-1/30"]) {
                $0.video.frameDuration = MediaTime(value: -1, timescale: 30)
            },
            Case(label: "frame duration 1/2147483647 s", expected: ["frame duration", "1/2147483647"]) {
                $0.video.frameDuration = MediaTime(value: 1, timescale: Int32.max)
            },
            Case(label: "frame duration Int64.max s", expected: ["frame duration"]) {
                $0.video.frameDuration = MediaTime(value: .max, timescale: 1)
            },
            Case(label: "render size 100000 × 100000", expected: ["render size 100000 × 100000", "8192"]) {
                $0.video.renderSize = Size(width: 100_000, height: 100_000)
            },
            Case(label: "render size Int.max × 2", expected: ["render size \(Int.max) × 2"]) {
                $0.video.renderSize = Size(width: .max, height: 2)
            },
            Case(label: "render size negative", expected: ["render size -640 × -360"]) {
                $0.video.renderSize = Size(width: -640, height: -360)
            },
            Case(label: "layer opacity 2", expected: ["opacity", "2.0"]) {
                $0.video.instructions[0].layerInstructions[0].setOpacity(2, at: .zero)
            },
            Case(label: "layer transform NaN", expected: ["transform", "nan"]) {
                $0.video.instructions[0].layerInstructions[0].setTransform(
                    AffineTransform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), at: .zero)
            },
            Case(label: "instruction with an invalid time range", expected: ["instruction 0", "time range"]) {
                $0.video.instructions[0].timeRange = TimeRange(start: .invalid, duration: .invalid)
            },
            Case(label: "sample rate 0", expected: ["sampleRate 0"]) { $0.settings.audio?.sampleRate = 0 },
            Case(label: "sample rate Int.max", expected: ["sampleRate \(Int.max)"]) { $0.settings.audio?.sampleRate = .max },
            Case(label: "3 audio channels", expected: ["channelCount 3"]) { $0.settings.audio?.channelCount = 3 },
            Case(label: "channel count Int.max", expected: ["channelCount \(Int.max)"]) { $0.settings.audio?.channelCount = .max },
            Case(label: "audio bit rate -1", expected: ["bitRate -1"]) { $0.settings.audio?.bitRate = -1 },
            Case(label: "key frame interval 0", expected: ["keyFrameInterval 0"]) { $0.settings.video?.keyFrameInterval = 0 },
            Case(label: "key frame interval Int.max", expected: ["keyFrameInterval \(Int.max)"]) {
                $0.settings.video?.keyFrameInterval = .max
            },
            Case(label: "CRF 1000", expected: ["constantQuality(1000)"]) { $0.settings.video?.rateControl = .constantQuality(1000) },
            Case(label: "average bit rate 0", expected: ["averageBitRate(0)"]) { $0.settings.video?.rateControl = .averageBitRate(0) },
            Case(label: "empty encoder preset", expected: ["encoderPreset"]) { $0.settings.video?.encoderPreset = "" },
            Case(label: "unknown encoder preset", expected: ["nonsense"]) { $0.settings.video?.encoderPreset = "nonsense" },
            Case(label: "maximum size 0 × 0", expected: ["maximumSize 0 × 0"]) { $0.settings.video?.maximumSize = .zero },
            Case(label: "file length limit 0", expected: ["fileLengthLimit 0"]) { $0.fileLengthLimit = 0 },
            Case(label: "file length limit Int64.min", expected: ["fileLengthLimit \(Int64.min)"]) { $0.fileLengthLimit = .min },
        ]

        @Test(arguments: cases)
        func aBadRequestIsATypedErrorNamingTheFieldBeforeAnyFileIsOpened(_ bad: Case) async throws {
            let composition = try await Self.composition()
            var request = Request(composition: composition, video: MutableVideoComposition(propertiesOf: composition),
                                  settings: FastSettings.make())
            bad.change(&request)
            let scratch = try ScratchDirectory("bad-model")
            defer { scratch.remove() }
            let session = AssetExportSession(asset: request.composition, settings: request.settings)
            session.outputURL = scratch.file("out.mp4")
            session.videoComposition = request.video
            session.timeRange = request.timeRange
            session.fileLengthLimit = request.fileLengthLimit
            let residentBefore = ProcessStats.residentBytes
            let started = ContinuousClock.now
            var caught: (any Error)?
            do { try await session.export() } catch { caught = error }
            let elapsed = ContinuousClock.now - started
            let error = try #require(caught as? ExportError, "\(bad.label): \(String(describing: caught))")
            if case .sourceUnreadable = error { Issue.record("\(bad.label): a source was opened before the models were checked: \(error)") }
            let text = error.description
            for word in bad.expected { #expect(text.contains(word), "\(bad.label): '\(word)' not in: \(text)") }
            #expect(scratch.contents.isEmpty)
            // Refused before any allocation: without the gigabytes a 100000 × 100000 canvas needs (15 GB a frame), and
            // long before such a frame could be drawn. Other tests share this process and the machine, so both bounds are
            // coarse: the time bound only catches rendering, not a slow scheduler.
            #expect(elapsed < .seconds(30), "\(bad.label): \(elapsed)")
            #expect(ProcessStats.residentBytes - residentBefore < 1 << 30)
        }

        @Test func theImageGeneratorRefusesAHugeCanvasBeforeAllocating() async throws {
            let composition = try await Self.composition()
            var generator = AssetImageGenerator(asset: composition)
            var video = MutableVideoComposition(propertiesOf: composition)
            video.renderSize = Size(width: 100_000, height: 100_000)
            generator.videoComposition = video
            await #expect {
                _ = try await generator.image(at: .zero)
            } throws: { error in
                guard case ExportError.invalidVideoComposition(let issues) = error else { return false }
                return issues.contains { $0.description.contains("render size 100000 × 100000") }
            }
            generator.videoComposition = nil
            generator.maximumSize = Size(width: 0, height: 0)
            await #expect {
                _ = try await generator.image(at: .zero)
            } throws: { error in
                guard case ExportError.unsupportedSettings(let reason) = error else { return false }
                return reason.contains("maximumSize 0 × 0")
            }
        }

        /// Thousands of tracks, made the way a service receives them: as a JSON document.
        @Test func thousandsOfTracksAreRefusedBeforeAnyFileIsOpened() async throws {
            let one = try await Self.composition(seconds: 1)
            let encoded = try JSONNode(parsing: try JSONEncoder().encode(one))
            guard let tracks = encoded["tracks"]?.elements else { Issue.record("no tracks in \(encoded.compactText)"); return }
            let video = try #require(tracks.first { $0["mediaType"]?.string == "video" })
            let audio = try #require(tracks.first { $0["mediaType"]?.string == "audio" })
            @Sendable func document(videoCount: Int, audioCount: Int) throws -> MutableComposition {
                let many: [JSONNode] = (0..<(videoCount + audioCount)).map { i in
                    var track = i < videoCount ? video : audio
                    track["trackID"] = JSONNode(.number("\(i + 1)"))
                    return track
                }
                let text = JSONNode(.object([JSONNode.Member(key: "tracks", value: JSONNode(.array(many)))])).compactText
                return try JSONDecoder().decode(MutableComposition.self, from: Data(text.utf8))
            }
            let scratch = try ScratchDirectory("many-tracks")
            defer { scratch.remove() }

            // Building and decoding the documents is CPU work: off the cooperative pool.
            let audioHeavy = try await onWorkerThread { try document(videoCount: 1, audioCount: 2000) }
            #expect(audioHeavy.tracks.count == 2001)
            let session = AssetExportSession(asset: audioHeavy, settings: FastSettings.make())
            session.outputURL = scratch.file("audio.mp4")
            await #expect(throws: ExportError.invalidComposition(
                "it has 2000 enabled audio tracks with media; at most 64 are mixed (each plays through its own decoder at once)")) {
                try await session.export()
            }
            let videoHeavy = try await onWorkerThread { try document(videoCount: 1200, audioCount: 0) }
            let videoSession = AssetExportSession(asset: videoHeavy, settings: FastSettings.make())
            videoSession.outputURL = scratch.file("video.mp4")
            await #expect {
                try await videoSession.export()
            } throws: { error in
                guard case ExportError.invalidVideoComposition(let issues) = error else { return false }
                return issues.map(\.description) == ["tooManyLayers: instruction 0 draws 1200 layers; at most 32 are composited at once"]
            }
            #expect(scratch.contents.isEmpty)
        }

        // MARK: Documents

        /// A decoding failure's coding path as text: `tracks[0].trackID`.
        static func path(_ error: any Error) -> String? {
            let context: DecodingError.Context
            switch error as? DecodingError {
            case .typeMismatch(_, let c)?, .valueNotFound(_, let c)?, .dataCorrupted(let c)?: context = c
            case .keyNotFound(let key, let c)?: return (c.codingPath + [key]).map(Self.component).joined(separator: ".")
            default: return nil
            }
            return context.codingPath.map(Self.component).joined(separator: ".")
        }

        static func component(_ key: any CodingKey) -> String { key.intValue.map { "\($0)" } ?? key.stringValue }

        struct Document: Sendable, CustomTestStringConvertible {
            enum Kind: Sendable { case composition, videoComposition, audioMix }
            var label: String
            var kind: Kind
            var json: String
            /// The coding path the error must name (`tracks.0.trackID`), or words its description must contain.
            var path: String
            var testDescription: String { label }
        }

        static let documents: [Document] = [
            Document(label: "wrong type: trackID as text", kind: .composition,
                     json: #"{"tracks": [{"trackID": "one", "mediaType": "video"}]}"#, path: "tracks.0.trackID"),
            Document(label: "wrong type: tracks as an object", kind: .composition, json: #"{"tracks": {"trackID": 1}}"#, path: "tracks"),
            Document(label: "wrong type: renderSize as text", kind: .videoComposition,
                     json: #"{"renderSize": "big", "frameDuration": "1/30"}"#, path: "renderSize"),
            Document(label: "wrong type: frameDuration as a number", kind: .videoComposition,
                     json: #"{"renderSize": {"width": 2, "height": 2}, "frameDuration": 0.033}"#, path: "frameDuration"),
            Document(label: "missing frameDuration", kind: .videoComposition,
                     json: #"{"renderSize": {"width": 2, "height": 2}}"#, path: "frameDuration"),
            Document(label: "overflowing timescale (object)", kind: .videoComposition,
                     json: #"{"renderSize": {"width": 2, "height": 2}, "frameDuration": {"value": 1, "timescale": 3000000000}}"#,
                     path: "frameDuration.timescale"),
            Document(label: "overflowing timescale (text)", kind: .videoComposition,
                     json: #"{"renderSize": {"width": 2, "height": 2}, "frameDuration": "1/3000000000"}"#, path: "frameDuration"),
            Document(label: "zero timescale", kind: .videoComposition,
                     json: #"{"renderSize": {"width": 2, "height": 2}, "frameDuration": {"value": 1, "timescale": 0}}"#,
                     path: "frameDuration.timescale"),
            Document(label: "overflowing value", kind: .videoComposition,
                     json: #"{"renderSize": {"width": 2, "height": 2}, "frameDuration": "99999999999999999999/30"}"#,
                     path: "frameDuration"),
            Document(label: "overflowing value (object)", kind: .videoComposition,
                     json: #"{"renderSize": {"width": 2, "height": 2}, "frameDuration": {"value": 1e30, "timescale": 30}}"#,
                     path: "frameDuration.value"),
            Document(label: "fractional timescale", kind: .videoComposition,
                     json: #"{"renderSize": {"width": 2, "height": 2}, "frameDuration": {"value": 1, "timescale": 29.97}}"#,
                     path: "frameDuration.timescale"),
            Document(label: "invalid time text", kind: .audioMix,
                     json: #"{"inputParameters": [{"trackID": 1, "volume": [{"time": "soon", "value": 1}]}]}"#,
                     path: "inputParameters.0.volume.0"),
            Document(label: "wrong type: volume as text", kind: .audioMix,
                     json: #"{"inputParameters": [{"trackID": 1, "volume": [{"time": "0/1", "value": "loud"}]}]}"#,
                     path: "inputParameters.0.volume.0"),
            Document(label: "negative segment duration", kind: .composition,
                     json: #"{"tracks": [{"trackID": 1, "mediaType": "video", "segments": [{"timeMapping": {"source": {"start": "invalid", "duration": "invalid"}, "target": {"start": "0/1", "duration": "-1/1"}}}]}]}"#,
                     path: "tracks.0"),
            Document(label: "track ID 0", kind: .composition,
                     json: #"{"tracks": [{"trackID": 0, "mediaType": "audio"}]}"#, path: "tracks.0"),
            Document(label: "repeated track ID", kind: .composition,
                     json: #"{"tracks": [{"trackID": 4, "mediaType": "audio"}, {"trackID": 4, "mediaType": "video"}]}"#, path: "tracks"),
            Document(label: "unknown media type", kind: .composition,
                     json: #"{"tracks": [{"trackID": 1, "mediaType": "hologram"}]}"#, path: "tracks.0.mediaType"),
        ]

        static func decode(_ kind: Document.Kind, _ data: Data) throws {
            let decoder = JSONDecoder()
            switch kind {
            case .composition: _ = try decoder.decode(MutableComposition.self, from: data)
            case .videoComposition: _ = try decoder.decode(MutableVideoComposition.self, from: data)
            case .audioMix: _ = try decoder.decode(MutableAudioMix.self, from: data)
            }
        }

        @Test(arguments: documents)
        func aBadDocumentIsADecodingErrorNamingTheField(_ document: Document) throws {
            var caught: (any Error)?
            do { try Self.decode(document.kind, Data(document.json.utf8)) } catch { caught = error }
            let error = try #require(caught, "\(document.label) decoded")
            let path = try #require(Self.path(error), "\(document.label): not a DecodingError: \(error)")
            #expect(path.hasPrefix(document.path), "\(document.label): path '\(path)', expected '\(document.path)': \(error)")
        }

        /// A number beyond `Int` where a size belongs is a `DecodingError`. (Foundation's JSONDecoder on Linux reports it
        /// as "not valid JSON" with an empty coding path for every synthesized `Int` field; `MediaTime` names its own
        /// fields, see above.)
        @Test func aSizeBeyondIntIsADecodingError() {
            let json = #"{"renderSize": {"width": 1e300, "height": 2}, "frameDuration": "1/30"}"#
            #expect(throws: DecodingError.self) { try Self.decode(.videoComposition, Data(json.utf8)) }
        }

        /// 20,000 levels of nesting where a track list belongs, in arrays and in objects: a decoding error, promptly,
        /// with no stack overflow.
        @Test(arguments: ["[", "{\"a\":"])
        func deeplyNestedJSONIsADecodingError(_ opener: String) async throws {
            let closer = opener == "[" ? "]" : "}"
            let depth = 20_000
            let json = "{\"tracks\": " + String(repeating: opener, count: depth) + "1" + String(repeating: closer, count: depth) + "}"
            let started = ContinuousClock.now
            let errors = try await onWorkerThread { () -> [String] in
                [Document.Kind.composition, .videoComposition].map { kind in
                    do {
                        try Self.decode(kind, Data(json.utf8))
                        return "decoded"
                    } catch {
                        return ErrorKind.name(error)
                    }
                }
            }
            #expect(errors.allSatisfy { $0.hasPrefix("DecodingError") }, "\(errors)")
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }
}
