import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// Reviewed goldens of the transitions catalogue halfway through (p = 0.5), from a picture with structure (the
/// quadrants: red, green, blue, white) into solid blue, over the overlap [1 s, 2 s) — pictures a reviewer can read
/// (`Fixtures/goldens/transition-*.png`). Beside each golden, every 8th pixel is checked against xfade's definition
/// (``XfadeReference``) with the quadrant colour under that pixel as the outgoing colour. (The noise dissolve is
/// checked per pixel on solid colours in ``TransitionGoldenTests``: on 4:2:0 its isolated pixels' chroma blends.)
@Suite("Transitions: reviewed goldens")
struct TransitionReviewedGoldenTests {
    typealias S = GoldenScenario
    static let incoming = RGB.blue
    static let halfway = MediaTime(value: 3, timescale: 2)

    static func render(_ style: VideoTransitionStyle, in scratch: ScratchDirectory) async throws -> VideoFrame {
        let (composition, ids) = try S.composition([
            .init(asset: try await S.quadrants(in: scratch)), .init(asset: try await S.solid("blue"), at: MediaTime(seconds: 1)),
        ])
        let range = TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1))
        let video = MutableVideoComposition(renderSize: S.canvas, frameDuration: S.frameDuration, instructions: [
            VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)),
                                        layerInstructions: [VideoCompositionLayerInstruction(trackID: ids[0])]),
            .transition(style, from: ids[0], to: ids[1], timeRange: range),
            VideoCompositionInstruction(timeRange: TimeRange(start: MediaTime(seconds: 2), duration: MediaTime(seconds: 1)),
                                        layerInstructions: [VideoCompositionLayerInstruction(trackID: ids[1])]),
        ])
        #expect(video.validate(for: composition).isEmpty)
        return try await S.render(composition, video, at: halfway)
    }

    /// What xfade draws at (x, y) for p = 0.5: the outgoing colour is the quadrant under the pixel.
    static func expected(_ style: VideoTransitionStyle, _ x: Int, _ y: Int) -> RGB? {
        let w = S.canvas.width, h = S.canvas.height
        guard let outgoing = Pictures.quadrants(S.canvas)(Point(x: Double(x), y: Double(y))) else { return nil }
        return XfadeReference.colour(style, x: x, y: y, w: w, h: h, p: 0.5, a: outgoing, b: incoming)
    }

    @Test("wipe, circle, fade and fade through black at 50 %: golden and definition",
          arguments: [VideoTransitionStyle.wipeLeft, .circleOpen, .fadeBlack, .fade])
    func halfwayMatchesGoldenAndDefinition(_ style: VideoTransitionStyle) async throws {
        let scratch = try ScratchDirectory("transition-golden")
        defer { scratch.remove() }
        let frame = try await Self.render(style, in: scratch)
        S.expectGolden(frame, "transition-\(style.rawValue)-50")
        var checked = 0, wrong: [String] = []
        for y in stride(from: 4, to: S.canvas.height, by: 8) {
            for x in stride(from: 4, to: S.canvas.width, by: 8) {
                guard let want = Self.expected(style, x, y), let got = frame.rgb(x, y) else { continue }
                // Skip pixels within 6 of an edge of either picture (4:2:0 chroma, resampled, blends across it).
                let near = [(x - 6, y), (x + 6, y), (x, y - 6), (x, y + 6)].compactMap { Self.expected(style, $0.0, $0.1) }
                if near.contains(where: { TransitionGoldenTests.distance($0, want) > 8 }) { continue }
                checked += 1
                if TransitionGoldenTests.distance(got, want) > 4 { wrong.append("(\(x), \(y)) \(got) ≠ \(want)") }
            }
        }
        #expect(checked > 400, "\(style.rawValue): only \(checked) pixels away from edges")
        #expect(wrong.isEmpty, "\(style.rawValue) at 50 %: \(wrong.count) of \(checked) pixels off: \(wrong.prefix(5))")
    }
}
