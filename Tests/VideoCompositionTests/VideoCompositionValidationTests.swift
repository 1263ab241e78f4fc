import Foundation
import Testing
import Composition
@testable import VideoComposition

private func s(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }
private func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange { TimeRange(start: start, end: end) }

/// A 4-second composition: a 1280 × 720 video track 1 and an audio track 2.
let validationSummary = CompositionSummary(tracks: [
    CompositionSummary.Track(
        trackID: 1, mediaType: .video, timeRange: range(.zero, s(4)), segments: [.init(target: range(.zero, s(4)))],
        naturalSize: Size(width: 1280, height: 720), minFrameDuration: s(1, 30)),
    CompositionSummary.Track(trackID: 2, mediaType: .audio, timeRange: range(.zero, s(4)), segments: [.init(target: range(.zero, s(4)))]),
])

/// A valid video composition for ``validationSummary``: one instruction over [0, 4 s) drawing track 1, and a text overlay.
func validVideoComposition(layer: (inout VideoCompositionLayerInstruction) -> Void = { _ in }) -> MutableVideoComposition {
    var layerInstruction = VideoCompositionLayerInstruction(trackID: 1)
    layer(&layerInstruction)
    return MutableVideoComposition(
        renderSize: Size(width: 1280, height: 720), frameDuration: s(1, 30),
        instructions: [VideoCompositionInstruction(timeRange: range(.zero, s(4)), layerInstructions: [layerInstruction])],
        overlays: [textOverlay()])
}

func textOverlay(_ change: (inout TextLayerContent) -> Void = { _ in }) -> OverlayLayer {
    var text = TextLayerContent(string: "Splice", fontSize: 48)
    change(&text)
    return OverlayLayer(content: .text(text), frame: Rect(x: 40, y: 40, width: 400, height: 80), timeRange: range(.zero, s(2)))
}

/// One validation case: a composition with exactly one problem and the exact issue it must produce.
struct ValidationCase: Sendable, CustomTestStringConvertible {
    let name: String
    let found: [ValidationIssue]
    let expected: ValidationIssue
    var testDescription: String { name }

    init(_ name: String, _ video: (inout MutableVideoComposition) -> Void, _ expected: ValidationIssue) {
        var composition = validVideoComposition()
        video(&composition)
        self.init(name, found: composition.validate(for: validationSummary), expected)
    }

    init(_ name: String, layer: (inout VideoCompositionLayerInstruction) -> Void, _ expected: ValidationIssue) {
        self.init(name, found: validVideoComposition(layer: layer).validate(for: validationSummary), expected)
    }

    init(_ name: String, found: [ValidationIssue], _ expected: ValidationIssue) {
        self.name = name
        self.found = found
        self.expected = expected
    }
}

private let owner = "instruction 0, layer instruction for track 1"

let validationCases: [ValidationCase] = [
    ValidationCase("zero render width", { $0.renderSize = Size(width: 0, height: 720) }, ValidationIssue(
        kind: .invalidRenderSize, message: "render size 0 × 720 pixels: width and height must be greater than 0")),
    ValidationCase("odd render height", { $0.renderSize = Size(width: 1280, height: 721) }, ValidationIssue(
        kind: .oddRenderSize, message: "render size 1280 × 721 pixels: the height must be even for 4:2:0 output")),
    ValidationCase("zero frame duration", { $0.frameDuration = .zero }, ValidationIssue(
        kind: .invalidFrameDuration, message: "frame duration 0.000 s (0/1) must be a positive numeric time")),
    ValidationCase("no instructions", { $0.instructions = [] }, ValidationIssue(
        kind: .noInstructions, time: .zero,
        message: "the video composition has no instruction but the composition lasts 4.000 s (4/1)")),
    ValidationCase("empty instruction", {
        $0.instructions.append(VideoCompositionInstruction(timeRange: TimeRange(start: s(4), duration: .zero)))
    }, ValidationIssue(
        kind: .invalidInstructionTimeRange, instructionIndex: 1, time: s(4),
        message: "instruction 1 has time range [4.000 s (4/1), 4.000 s (4/1)): it needs a numeric start and a positive duration")),
    ValidationCase("first instruction starts late", { $0.instructions[0].timeRange = range(s(1), s(4)) }, ValidationIssue(
        kind: .instructionsStartLate, instructionIndex: 0, time: .zero,
        message: "the first instruction (0) starts at 1.000 s (1/1): nothing covers [0.000 s (0/1), 1.000 s (1/1))")),
    ValidationCase("gap", {
        $0.instructions[0].timeRange = range(.zero, s(1))
        $0.instructions.append(VideoCompositionInstruction(timeRange: range(s(2), s(4))))
    }, ValidationIssue(
        kind: .gapBetweenInstructions, instructionIndex: 1, time: s(1),
        message: "instruction 1 starts at 2.000 s (2/1) but instruction 0 ends at 1.000 s (1/1): nothing covers "
            + "[1.000 s (1/1), 2.000 s (2/1))")),
    ValidationCase("overlap", {
        $0.instructions[0].timeRange = range(.zero, s(3))
        $0.instructions.append(VideoCompositionInstruction(timeRange: range(s(2), s(4))))
    }, ValidationIssue(
        kind: .overlappingInstructions, instructionIndex: 1, time: s(2),
        message: "instruction 1 starts at 2.000 s (2/1), before instruction 0 ends at 3.000 s (3/1) "
            + "(instructions must be in time order without overlap)")),
    ValidationCase("last instruction ends early", { $0.instructions[0].timeRange = range(.zero, s(3)) }, ValidationIssue(
        kind: .instructionsEndEarly, instructionIndex: 0, time: s(3),
        message: "the last instruction (0) ends at 3.000 s (3/1) but the composition lasts 4.000 s (4/1): nothing covers "
            + "[3.000 s (3/1), 4.000 s (4/1))")),
    ValidationCase("layer for an unknown track", { $0.instructions[0].layerInstructions[0].trackID = 9 }, ValidationIssue(
        kind: .unknownTrack, instructionIndex: 0, trackID: 9, time: .zero,
        message: "instruction 0, layer instruction for track 9: the composition has no track 9")),
    ValidationCase("layer for an audio track", { $0.instructions[0].layerInstructions[0].trackID = 2 }, ValidationIssue(
        kind: .wrongMediaType, instructionIndex: 0, trackID: 2, time: .zero,
        message: "instruction 0, layer instruction for track 2: track 2 has media type audio, not video")),
    ValidationCase("two layers for one track", {
        $0.instructions[0].layerInstructions.append(VideoCompositionLayerInstruction(trackID: 1))
    }, ValidationIssue(
        kind: .duplicateTrack, instructionIndex: 0, trackID: 1, time: .zero,
        message: "\(owner): the instruction already has a layer instruction for track 1")),
    ValidationCase("opacity set at an invalid time", layer: { $0.setOpacity(0.5, at: .invalid) }, ValidationIssue(
        kind: .invalidKeyTime, instructionIndex: 0, trackID: 1,
        message: "\(owner): opacity set at invalid, which is not a numeric time")),
    ValidationCase("ramp ending before it starts", layer: {
        $0.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: range(s(2), s(1)))
    }, ValidationIssue(
        kind: .invalidRampTimeRange, instructionIndex: 0, trackID: 1, time: s(2),
        message: "\(owner): opacity ramp has time range (start 2.000 s (2/1), duration -1.000 s (-1/1)): a ramp needs a "
            + "numeric start and a positive numeric duration (a negative duration: an end before the start, or keyframes "
            + "out of time order)")),
    ValidationCase("overlapping ramps", layer: {
        $0.setTransformRamp(fromStart: .identity, toEnd: AffineTransform2D(translationX: 10, y: 0), timeRange: range(.zero, s(2)))
        $0.setTransformRamp(fromStart: .identity, toEnd: AffineTransform2D(translationX: 0, y: 10), timeRange: range(s(1), s(3)))
    }, ValidationIssue(
        kind: .overlappingRamps, instructionIndex: 0, trackID: 1, time: s(1),
        message: "\(owner): transform ramp over [1.000 s (1/1), 3.000 s (3/1)) overlaps the transform ramp over "
            + "[0.000 s (0/1), 2.000 s (2/1))")),
    ValidationCase("non-finite transform", layer: {
        $0.setTransform(AffineTransform2D(a: 1, b: 0, c: 0, d: .infinity, tx: 0, ty: 0), at: s(1))
    }, ValidationIssue(
        kind: .nonFiniteTransform, instructionIndex: 0, trackID: 1, time: s(1),
        message: "\(owner): transform set at 1.000 s (1/1): value has a non-finite component: "
            + "(a 1.0, b 0.0, c 0.0, d inf, tx 0.0, ty 0.0)")),
    ValidationCase("opacity above 1", layer: { $0.setOpacity(1.5, at: s(1)) }, ValidationIssue(
        kind: .opacityOutOfRange, instructionIndex: 0, trackID: 1, time: s(1),
        message: "\(owner): opacity set at 1.000 s (1/1): value is 1.5, outside 0...1")),
    ValidationCase("crop beyond the source frame", layer: {
        $0.setCropRectangle(Rect(x: 1000, y: 0, width: 400, height: 720), at: .zero)
    }, ValidationIssue(
        kind: .invalidCropRectangle, instructionIndex: 0, trackID: 1, time: .zero,
        message: "\(owner): crop rectangle set at 0.000 s (0/1): value is (x 1000.0, y 0.0, width 400.0, height 720.0), "
            + "which extends beyond the 1280 × 720 source frame")),
    ValidationCase("background colour above 1", { $0.backgroundColor = Color(red: 2, green: 0, blue: 0) }, ValidationIssue(
        kind: .invalidColor,
        message: "background colour (red 2.0, green 0.0, blue 0.0, alpha 1.0) has a component outside 0...1")),
    ValidationCase("missing overlay image", {
        $0.overlays[0].content = .image(URL(fileURLWithPath: "/nonexistent/splice-logo.png"))
    }, ValidationIssue(
        kind: .overlayImageUnreadable, overlayIndex: 0, time: .zero,
        message: "overlay 0: image /nonexistent/splice-logo.png does not exist")),
    ValidationCase("missing font file", {
        $0.overlays[0] = textOverlay { $0.fontFile = URL(fileURLWithPath: "/nonexistent/Splice.ttf") }
    }, ValidationIssue(
        kind: .overlayFontUnreadable, overlayIndex: 0, time: .zero,
        message: "overlay 0: font file /nonexistent/Splice.ttf does not exist")),
    ValidationCase("empty overlay frame", { $0.overlays[0].frame.width = 0 }, ValidationIssue(
        kind: .invalidOverlayFrame, overlayIndex: 0, time: .zero,
        message: "overlay 0: frame (x 40.0, y 40.0, width 0.0, height 80.0) must be finite with a width and height greater than 0")),
    ValidationCase("empty overlay time range", { $0.overlays[0].timeRange = TimeRange(start: s(1), duration: .zero) }, ValidationIssue(
        kind: .invalidOverlayTimeRange, overlayIndex: 0, time: s(1),
        message: "overlay 0: time range [1.000 s (1/1), 1.000 s (1/1)) needs a numeric start and a positive duration")),
    ValidationCase("zero font size", { $0.overlays[0] = textOverlay { $0.fontSize = 0 } }, ValidationIssue(
        kind: .invalidTextAttributes, overlayIndex: 0, time: .zero,
        message: "overlay 0: font size 0.0 pixels must be a finite number greater than 0")),
    ValidationCase("infinite overlay rotation", { $0.overlays[0].rotations.setValue(.infinity, at: s(1)) }, ValidationIssue(
        kind: .nonFiniteValue, overlayIndex: 0, time: s(1),
        message: "overlay 0: rotation set at 1.000 s (1/1): value is inf, not finite")),
    ValidationCase("transition from a track to itself", { $0.instructions[0].transition = VideoTransition(style: .wipeLeft, from: 1, to: 1) },
                   ValidationIssue(kind: .invalidTransition, instructionIndex: 0, trackID: 1, time: .zero,
                                   message: "instruction 0: the transition goes from track 1 to the same track")),
    ValidationCase("brightness beyond 1", layer: { $0.setEffect(.brightness, 1.5, at: s(1)) }, ValidationIssue(
        kind: .effectOutOfRange, instructionIndex: 0, trackID: 1, time: s(1),
        message: "\(owner): effect 0 (brightness) set at 1.000 s (1/1): value is 1.5 normalised luma offset, outside -1.0...1.0")),
    ValidationCase("missing lookup table", layer: { $0.addLookupTable(URL(fileURLWithPath: "/nonexistent/look.cube")) },
                   ValidationIssue(kind: .invalidLookupTable, instructionIndex: 0, trackID: 1, time: .zero,
                                   message: "\(owner): effect 0 (lookupTable) /nonexistent/look.cube: does not exist")),
]

@Suite("MutableVideoComposition.validate(for:)")
struct VideoCompositionValidationTests {
    @Test func theBaselineIsValid() throws {
        #expect(validVideoComposition().validate(for: validationSummary) == [])
        try validVideoComposition().validated(for: validationSummary)
        #expect(MutableVideoComposition(propertiesOf: validationSummary).validate(for: validationSummary) == [])
    }

    @Test(arguments: validationCases)
    func eachProblemIsReportedExactly(_ validationCase: ValidationCase) {
        #expect(validationCase.found == [validationCase.expected])
    }

    @Test func everyKindHasACase() {
        // `tooManyLayers` is the export engine's limit, reported by its planner (ReliabilityTests' BadModelTests);
        // `negativeVolume` only the audio mix reports (AudioMixTests' AudioMixValidationTests).
        #expect(Set(validationCases.map(\.expected.kind))
            == Set(ValidationIssue.Kind.allCases).subtracting([.tooManyLayers, .negativeVolume]))
    }

    @Test func aCompositionWithSeveralProblemsReportsThemAll() throws {
        var video = validVideoComposition { layer in
            layer.setOpacity(2, at: s(1))
        }
        video.renderSize = Size(width: 1279, height: 720)
        video.frameDuration = .invalid
        video.instructions[0].timeRange = range(s(1, 2), s(2))
        video.instructions.append(VideoCompositionInstruction(timeRange: range(s(3), s(7, 2)), layerInstructions: [
            VideoCompositionLayerInstruction(trackID: 5), VideoCompositionLayerInstruction(trackID: 2),
        ]))
        video.overlays.append(OverlayLayer(
            content: .image(URL(fileURLWithPath: "/nonexistent/a.png")), frame: Rect(x: 0, y: 0, width: 10, height: 10),
            timeRange: range(.zero, s(1)), opacity: -0.25))

        let issues = video.validate(for: validationSummary)
        #expect(issues.map(\.kind) == [
            .oddRenderSize, .invalidFrameDuration,
            .instructionsStartLate, .gapBetweenInstructions, .instructionsEndEarly,
            .opacityOutOfRange, .unknownTrack, .wrongMediaType,
            .overlayImageUnreadable, .opacityOutOfRange,
        ])
        #expect(issues.map(\.instructionIndex) == [nil, nil, 0, 1, 1, 0, 1, 1, nil, nil])
        #expect(issues.map(\.overlayIndex) == [nil, nil, nil, nil, nil, nil, nil, nil, 1, 1])
        #expect(issues.map(\.trackID) == [nil, nil, nil, nil, nil, 1, 5, 2, nil, nil])
        #expect(issues.map(\.time) == [nil, nil, .zero, s(2), s(7, 2), s(1), s(3), s(3), .zero, .zero])

        #expect(throws: VideoCompositionError.invalid(issues)) { try video.validated(for: validationSummary) }
        let error = VideoCompositionError.invalid(Array(issues.prefix(2)))
        #expect(error.description == """
            video composition is invalid (2 problems):
            - oddRenderSize: render size 1279 × 720 pixels: the width must be even for 4:2:0 output
            - invalidFrameDuration: frame duration invalid must be a positive numeric time
            """)
    }

    @Test func aReadableOverlayImagePasses() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("splice-overlay-\(UUID().uuidString).png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var video = validVideoComposition()
        video.overlays = [OverlayLayer(content: .image(file), frame: Rect(x: 0, y: 0, width: 64, height: 64), timeRange: range(.zero, s(4)))]
        #expect(video.validate(for: validationSummary) == [])
        video.overlays[0].content = .image(FileManager.default.temporaryDirectory)
        #expect(video.validate(for: validationSummary).map(\.message) == [
            "overlay 0: image \(FileManager.default.temporaryDirectory.path) is a directory, not a file",
        ])
    }

    @Test func instructionsMayReachBeyondTheCompositionAndStartBeforeZero() {
        var video = validVideoComposition()
        video.instructions[0].timeRange = range(s(-1), s(10))
        #expect(video.validate(for: validationSummary) == [])
        video.instructions[0].timeRange = TimeRange(start: .zero, duration: .positiveInfinity)
        #expect(video.validate(for: validationSummary) == [])
    }
}
