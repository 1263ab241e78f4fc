import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// The transitions catalogue on solid sources: red [0, 2 s) then green [1 s, 3 s), the transition over the overlap
/// [1 s, 2 s). Frames at 25 %, 50 % and 75 % of it (1.25, 1.5, 1.75 s) are checked pixel by pixel against the
/// transition's definition (``XfadeReference``), and wipe boundaries to ±1 pixel.
@Suite("Transitions: picture against the definition")
struct TransitionGoldenTests {
    typealias S = GoldenScenario
    static let a = RGB.red, b = RGB.green
    static let w = S.canvas.width, h = S.canvas.height
    static let range = TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 1))
    static let fractions: [(time: MediaTime, p: Double)] = [
        (MediaTime(value: 5, timescale: 4), 0.25), (MediaTime(value: 3, timescale: 2), 0.5), (MediaTime(value: 7, timescale: 4), 0.75),
    ]

    /// Red, then the transition, then green.
    static func edit(_ style: VideoTransitionStyle, easing: Easing = .linear) async throws -> (MutableComposition, MutableVideoComposition) {
        let (composition, ids) = try S.composition([
            .init(asset: try await S.solid("red")), .init(asset: try await S.solid("green"), at: MediaTime(seconds: 1)),
        ])
        let first = VideoCompositionLayerInstruction(trackID: ids[0])
        let second = VideoCompositionLayerInstruction(trackID: ids[1])
        let video = MutableVideoComposition(renderSize: S.canvas, frameDuration: S.frameDuration, instructions: [
            VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1)), layerInstructions: [first]),
            .transition(style, from: ids[0], to: ids[1], timeRange: range, easing: easing),
            VideoCompositionInstruction(timeRange: TimeRange(start: MediaTime(seconds: 2), duration: MediaTime(seconds: 1)), layerInstructions: [second]),
        ])
        #expect(video.validate(for: composition).isEmpty)
        return (composition, video)
    }

    /// Every 8th pixel against the reference, within 4 levels, skipping pixels within 2 of a hard edge (4:2:0
    /// chroma blends across it; the boundary tests check edges).
    static func expectMatchesReference(_ frame: VideoFrame, _ style: VideoTransitionStyle, p: Double,
                                       sourceLocation: SourceLocation = #_sourceLocation) {
        var checked = 0, wrong: [String] = []
        for y in stride(from: 0, to: h, by: 8) {
            for x in stride(from: 0, to: w, by: 8) {
                guard let expected = XfadeReference.colour(style, x: x, y: y, w: w, h: h, p: p, a: a, b: b),
                      let actual = frame.rgb(x, y) else { continue }
                let neighbours = [(x - 2, y), (x + 2, y), (x, y - 2), (x, y + 2)].compactMap {
                    XfadeReference.colour(style, x: $0.0, y: $0.1, w: w, h: h, p: p, a: a, b: b)
                }
                if neighbours.contains(where: { distance($0, expected) > 8 }) { continue }
                checked += 1
                if distance(actual, expected) > 4 { wrong.append("(\(x), \(y)) \(actual) ≠ \(expected)") }
            }
        }
        #expect(checked > 600, "\(style.rawValue) at \(p): only \(checked) pixels away from edges", sourceLocation: sourceLocation)
        #expect(wrong.count == 0, "\(style.rawValue) at p = \(p): \(wrong.count) of \(checked) pixels off: \(wrong.prefix(5))",
                sourceLocation: sourceLocation)
    }

    static func distance(_ first: RGB, _ second: RGB) -> Double {
        max(abs(first.red - second.red), abs(first.green - second.green), abs(first.blue - second.blue))
    }

    /// True when the pixel is nearer B (green) than A (red): green's luma is far above red's.
    static func isIncoming(_ frame: VideoFrame, _ x: Int, _ y: Int) -> Bool {
        guard let pixel = frame.rgb(x, y) else { return false }
        return pixel.green > pixel.red
    }

    @Test("fades, wipes, slides, shapes and zoom match xfade's definition at 25, 50 and 75 %",
          arguments: [VideoTransitionStyle.fade, .fadeBlack, .fadeWhite, .wipeLeft, .wipeRight, .wipeUp, .wipeDown,
                      .wipeTopLeft, .slideLeft, .slideRight, .circleOpen, .circleClose, .rectCrop, .zoomIn])
    func matchesDefinition(_ style: VideoTransitionStyle) async throws {
        let (composition, video) = try await Self.edit(style)
        for (time, p) in Self.fractions {
            let frame = try await S.render(composition, video, at: time)
            Self.expectMatchesReference(frame, style, p: p)
        }
    }

    /// A left wipe's boundary sits at x = w·(1 − p) ± 1 on every checked row; a downward wipe's at y = h·p ± 1.
    @Test func wipeBoundariesToOnePixel() async throws {
        for (style, horizontal) in [(VideoTransitionStyle.wipeLeft, true), (.wipeDown, false), (.wipeRight, true), (.wipeUp, false)] {
            let (composition, video) = try await Self.edit(style)
            for (time, p) in Self.fractions {
                let frame = try await S.render(composition, video, at: time)
                let extent = horizontal ? Self.w : Self.h
                let expectedEdge: Double
                switch style {
                case .wipeLeft, .wipeUp: expectedEdge = Double(extent) * (1 - p)
                default: expectedEdge = Double(extent) * p
                }
                for line in stride(from: 4, to: horizontal ? Self.h : Self.w, by: 40) {
                    // The first position (scanning from 0) whose side differs from position 0's.
                    let side0 = horizontal ? Self.isIncoming(frame, 0, line) : Self.isIncoming(frame, line, 0)
                    let edge = (1..<extent).first {
                        (horizontal ? Self.isIncoming(frame, $0, line) : Self.isIncoming(frame, line, $0)) != side0
                    }
                    #expect(edge.map { abs(Double($0) - expectedEdge) <= 1 } == true,
                            "\(style.rawValue) at p = \(p): edge at \(edge.map(String.init) ?? "none"), expected \(expectedEdge) ± 1")
                }
            }
        }
    }

    /// The noise dissolve: the share of incoming pixels is p (±2 %), and each pixel follows xfade's threshold
    /// (classified by luma, which 4:2:0 keeps per pixel: ≥ 99.5 % agree; all did when written).
    @Test func noiseDissolveFollowsItsThresholds() async throws {
        let (composition, video) = try await Self.edit(.dissolve)
        for (time, p) in Self.fractions {
            let frame = try await S.render(composition, video, at: time)
            var incoming = 0, agree = 0, total = 0
            for y in 0..<Self.h {
                for x in 0..<Self.w {
                    guard let pixel = frame.rgb(x, y) else { continue }
                    let luma = 0.2126 * pixel.red + 0.7152 * pixel.green + 0.0722 * pixel.blue
                    let isB = luma > (0.2126 * 255 + 0.7152 * 255) / 2
                    let expectedB = XfadeReference.colour(.dissolve, x: x, y: y, w: Self.w, h: Self.h, p: p, a: Self.a, b: Self.b) == Self.b
                    total += 1
                    if isB { incoming += 1 }
                    if isB == expectedB { agree += 1 }
                }
            }
            let share = Double(incoming) / Double(total), agreement = Double(agree) / Double(total)
            print("dissolve at p = \(p): incoming share \(share), agreement with xfade's thresholds \(agreement)")
            #expect(abs(share - p) <= 0.02, "incoming share \(share) at p = \(p)")
            #expect(agreement >= 0.995, "agreement \(agreement) at p = \(p)")
        }
    }

    /// Easing is exact: ease-in-out at 25 % of the time is progress 2·0.25² = 0.125, so a left wipe's edge is at
    /// 320·0.875 = 280; ease-in at 50 % is 0.25 (edge at 240).
    @Test func easedProgressMovesTheEdge() async throws {
        for (easing, time, p) in [(Easing.easeInOut, MediaTime(value: 5, timescale: 4), 0.125), (.easeIn, MediaTime(value: 3, timescale: 2), 0.25)] {
            let (composition, video) = try await Self.edit(.wipeLeft, easing: easing)
            let transition = try #require(video.instructions[1].transition)
            #expect(transition.progress(at: time, in: Self.range) == p)
            let frame = try await S.render(composition, video, at: time)
            Self.expectMatchesReference(frame, .wipeLeft, p: p)
            let edge = (1..<Self.w).first { Self.isIncoming(frame, $0, 100) }
            #expect(edge.map { abs(Double($0) - 320 * (1 - p)) <= 1 } == true, "\(easing): edge at \(String(describing: edge))")
        }
    }

    /// Before and after the transition each track shows alone; the transition's first frame is all A (p = 0).
    @Test func endsAreTheClipsThemselves() async throws {
        let (composition, video) = try await Self.edit(.circleOpen)
        for (time, colour) in [(MediaTime(seconds: 1), Self.a), (MediaTime(value: 29, timescale: 30), Self.a), (MediaTime(seconds: 2), Self.b)] {
            let frame = try await S.render(composition, video, at: time)
            for (x, y) in [(0, 0), (160, 120), (319, 239)] { expectPixel(frame, x, y, colour, "at \(time)") }
        }
    }

    /// The image generator and a lossless export agree pixel for pixel on every frame of a wipe and a circle.
    @Test func imageGeneratorEqualsLosslessExport() async throws {
        let scratch = try ScratchDirectory("transition")
        defer { scratch.remove() }
        for style in [VideoTransitionStyle.wipeLeft, .circleOpen] {
            let (composition, video) = try await Self.edit(style)
            let url = scratch.file("\(style.rawValue).mkv")
            let session = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(codec: .ffv1), audio: nil))
            session.outputURL = url
            session.videoComposition = video
            try await session.export()
            let file = try await Asset.load(from: url)
            #expect(file.tracks(withMediaType: .video).first?.video?.frameCount == 90)
            var readback = MutableComposition()
            try readback.insertTimeRange(TimeRange(start: .zero, duration: file.duration), of: file, at: .zero)
            var generator = AssetImageGenerator(asset: readback)
            generator.requestedTimeToleranceBefore = .zero
            generator.requestedTimeToleranceAfter = .zero
            let frames = [29, 30, 37, 45, 52, 59, 60]
            let times = frames.map { S.frameDuration * Int64($0) }
            var decoded: [VideoFrame] = []
            for try await item in generator.images(for: times) { decoded.append(item.image) }
            for (index, time) in times.enumerated() {
                let rendered = try await S.render(composition, video, at: time)
                let comparison = try FrameComparison(actual: rendered, expected: decoded[index])
                #expect(comparison.isIdentical, "\(style.rawValue) frame \(frames[index]): \(comparison)")
            }
        }
    }
}
