import Foundation
import Testing
import Composition
@testable import VideoComposition

/// The effect model: evaluation by the keyframe rules, Codable forms, `.cube` checking with file and line, and the
/// range checks of validation.
@Suite("Layer effects: model")
struct VideoEffectModelTests {
    private static func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }

    @Test func rampsEvaluateLikeOpacityAndNeutralValuesDrawNothing() {
        var layer = VideoCompositionLayerInstruction(trackID: 1)
        layer.setEffectRamp(.blur, from: 0, to: 8, timeRange: TimeRange(start: Self.s(1), duration: Self.s(2)), easing: .linear)
        layer.setEffect(.temperature, 3200, at: Self.s(2))
        #expect(layer.effect(.blur, at: .zero) == 0)
        #expect(layer.effect(.blur, at: Self.s(3, 2)) == 2)
        #expect(layer.effect(.blur, at: Self.s(5)) == 8)
        #expect(layer.effect(.temperature, at: Self.s(1)) == 6500)
        #expect(layer.effect(.sharpen, at: Self.s(1)) == 0)
        #expect(layer.effectValues(at: Self.s(1, 2)) == [])
        #expect(layer.effectValues(at: Self.s(2)) == [.adjustment(.blur, 4), .adjustment(.temperature, 3200)])
        // Setting the same parameter again edits the same effect, not a second one.
        layer.setEffect(.blur, 1, at: Self.s(4))
        #expect(layer.effects.count == 2)
        #expect(layer.effect(.blur, at: Self.s(4)) == 1)
    }

    @Test func codableFormsRoundTrip() throws {
        let json = """
        {"trackID": 1, "effects": [
          {"type": "brightness", "value": 0.1},
          {"type": "blur", "keyframes": [{"timeRange": {"start": "0s", "duration": "1s"}, "startValue": 0, "endValue": 4}]},
          {"type": "lookupTable", "file": "/tmp/look.cube"}
        ]}
        """
        let layer = try JSONDecoder().decode(VideoCompositionLayerInstruction.self, from: Data(json.utf8))
        #expect(layer.effects.count == 3)
        #expect(layer.effect(.brightness, at: Self.s(5)) == 0.1)
        #expect(layer.effect(.blur, at: Self.s(1, 2)) == 2)
        #expect(layer.effects[2] == .lookupTable(URL(fileURLWithPath: "/tmp/look.cube")))
        let encoded = try JSONEncoder().encode(layer)
        #expect(try JSONDecoder().decode(VideoCompositionLayerInstruction.self, from: encoded) == layer)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"value\":0.1") && text.contains("\"keyframes\""))
        for bad in [#"{"type": "glow", "value": 1}"#, #"{"type": "blur"}"#, #"{"type": "blur", "value": 1, "keyframes": []}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(VideoEffect.self, from: Data(bad.utf8)) }
        }
    }

    @Test func cubeFilesAreCheckedWithFileAndLine() throws {
        let url = URL(fileURLWithPath: "/looks/test.cube")
        let good = try CubeLookupTable(parsing: "# c\nTITLE \"x\"\nLUT_3D_SIZE 2\n" + String(repeating: "0 0.5 1\n", count: 8), url: url)
        #expect(good.size == 2 && good.entries.count == 8 && good.entries[0] == [0, 0.5, 1])
        let cases: [(String, Int?, String)] = [
            ("LUT_3D_SIZE 2\n0 0 0\n1 0\n", 3, "expected 3 numbers, found '1 0'"),
            ("LUT_3D_SIZE 2\n0 0 0\n0 x 0\n", 3, "expected 3 numbers, found '0 x 0'"),
            ("0 0 0\n", 1, "a colour row comes before LUT_3D_SIZE"),
            ("LUT_3D_SIZE 1\n", 1, "LUT_3D_SIZE must be one whole number from 2 to 256"),
            ("LUT_1D_SIZE 16\n", 1, "is a 1D lookup table; lut3d reads 3D tables (LUT_3D_SIZE)"),
            ("LUT_3D_SIZE 2\nGLOW 1\n", 2, "unknown keyword 'GLOW'"),
            ("LUT_3D_SIZE 2\n" + String(repeating: "0 0 0\n", count: 7), 8, "has 7 colour rows; LUT_3D_SIZE 2 needs 8"),
            ("TITLE \"empty\"\n", nil, "has no LUT_3D_SIZE line"),
        ]
        for (text, line, reason) in cases {
            #expect(throws: CubeLookupTableError(url: url, line: line, reason: reason)) {
                try CubeLookupTable(parsing: text, url: url)
            }
        }
        #expect(CubeLookupTableError(url: url, line: 3, reason: "r").description == "/looks/test.cube line 3: r")
    }

    /// A `.cube` file read from disk: an empty one is parsed as empty text (no LUT_3D_SIZE line), one that is not
    /// UTF-8 or not there is named with its cause.
    @Test func cubeFilesReadFromDiskNameTheirCause() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cube-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.cube")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        #expect(throws: CubeLookupTableError(url: empty, line: nil, reason: "has no LUT_3D_SIZE line")) {
            try CubeLookupTable(contentsOf: empty)
        }
        let latin1 = folder.appendingPathComponent("latin1.cube")
        #expect(FileManager.default.createFile(atPath: latin1.path, contents: Data("TITLE \"caf".utf8) + Data([0xE9, 0x22, 0x0A])))
        #expect(throws: CubeLookupTableError(url: latin1, line: nil, reason: "cannot be read as UTF-8 text")) {
            try CubeLookupTable(contentsOf: latin1)
        }
        let missing = folder.appendingPathComponent("missing.cube")
        #expect(throws: CubeLookupTableError(url: missing, line: nil, reason: "does not exist")) {
            try CubeLookupTable(contentsOf: missing)
        }
        let good = folder.appendingPathComponent("good.cube")
        #expect(FileManager.default.createFile(atPath: good.path, contents: Data(("LUT_3D_SIZE 2\n" + String(repeating: "1 0 0\n", count: 8)).utf8)))
        let table = try CubeLookupTable(contentsOf: good)
        #expect(table.size == 2 && table.entries == Array(repeating: [1, 0, 0], count: 8))
    }

    @Test func validationNamesTheEffectTheValueAndTheCubeLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cube = folder.appendingPathComponent("bad.cube")
        try Data("LUT_3D_SIZE 2\n0 0 0\n0 0\n".utf8).write(to: cube)
        let video = validVideoComposition { layer in
            layer.setEffectRamp(.vignette, from: 0, to: 2, timeRange: TimeRange(start: .zero, duration: Self.s(1)))
            layer.setEffect(.saturation, .nan, at: Self.s(1))
            layer.addLookupTable(cube)
        }
        let issues = video.validate(for: validationSummary)
        let owner = "instruction 0, layer instruction for track 1"
        #expect(issues.map(\.message) == [
            "\(owner): effect 0 (vignette) ramp over [0.000 s (0/1), 1.000 s (1/1)): end value is 2.0 radians, outside 0.0...1.5707963267948966",
            "\(owner): effect 1 (saturation) set at 1.000 s (1/1): value is nan gain, outside 0.0...3.0",
            "\(owner): effect 2 (lookupTable) \(cube.path) line 3: expected 3 numbers, found '0 0'",
        ])
        #expect(issues.map(\.kind) == [.effectOutOfRange, .effectOutOfRange, .invalidLookupTable])
    }
}
