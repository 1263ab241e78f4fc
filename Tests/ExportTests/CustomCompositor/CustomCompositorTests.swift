import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// The custom compositor hook (`VideoCompositing`): what it is given, what its picture becomes, its errors, and its
/// concurrency — through export and the image generator alike.
@Suite("Custom compositor")
struct CustomCompositorTests {
    static let frameDuration = MediaTime(value: 1, timescale: 30)
    static let canvas = Size(width: 320, height: 240)
    /// The source quadrants' colours (mid-range, so 255 − x is never clipped) and a pixel in the middle of each.
    static let quadrantColors: [(Double, Double, Double)] = [(200, 40, 60), (30, 180, 90), (70, 90, 220), (128, 128, 128)]
    static let quadrantCentres = [Rect(x: 60, y: 40, width: 40, height: 40), Rect(x: 220, y: 40, width: 40, height: 40),
                                  Rect(x: 60, y: 160, width: 40, height: 40), Rect(x: 220, y: 160, width: 40, height: 40)]

    /// A 2 s composition of one video track and its video composition (one instruction, identity layer).
    static func edit(_ source: SyntheticSource, in scratch: ScratchDirectory) async throws
        -> (MutableComposition, MutableVideoComposition) {
        let asset = try await SyntheticMedia.makeAsset(video: source, duration: MediaTime(seconds: 2), in: scratch.url, name: "source")
        var composition = MutableComposition(naturalSize: canvas)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let id = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 2)), of: track, at: .zero, intoTrackWithID: id)
        let video = MutableVideoComposition(
            renderSize: canvas, frameDuration: frameDuration,
            instructions: [VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 2)),
                                                       layerInstructions: [VideoCompositionLayerInstruction(trackID: id)])])
        return (composition, video)
    }

    static func quadrants() -> SyntheticSource {
        let c = quadrantColors.map { Color(red: $0.0 / 255, green: $0.1 / 255, blue: $0.2 / 255) }
        return .quadrants(topLeft: c[0], topRight: c[1], bottomLeft: c[2], bottomRight: c[3])
    }

    static func session(_ composition: MutableComposition, _ video: MutableVideoComposition, _ settings: VideoSettings,
                        compositor: (any VideoCompositing)?, to url: URL) -> AssetExportSession {
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: settings, audio: nil))
        session.outputURL = url
        session.videoComposition = video
        session.customVideoCompositor = compositor
        return session
    }

    static let h264 = VideoSettings(codec: .h264, rateControl: .constantQuality(16), encoderPreset: "veryfast")

    @Test func anInvertingCompositorGivesTheInverseOfEveryChannel() async throws {
        let scratch = try ScratchDirectory("compositor")
        defer { scratch.remove() }
        let (composition, video) = try await Self.edit(Self.quadrants(), in: scratch)
        let url = scratch.file("inverted.mp4")
        try await Self.session(composition, video, Self.h264, compositor: TestCompositors.Inverting(), to: url).export()
        let asset = try await Asset.load(from: url)
        #expect(asset.tracks(withMediaType: .video).first?.video?.frameCount == 60)
        let frames = try await Readback.frames(of: url, at: [0, 29, 59].map { Self.frameDuration * Int64($0) })
        for (index, frame) in frames.enumerated() {
            for (quadrant, rect) in Self.quadrantCentres.enumerated() {
                let source = Self.quadrantColors[quadrant]
                let expected = (255 - source.0, 255 - source.1, 255 - source.2)
                let actual = frame.meanColor(in: rect)
                // Encoder noise (x264 CRF 16) plus the two 8-bit Y'CbCr ↔ R'G'B' conversions on flat colour.
                #expect(colorMatches(actual, expected, tolerance: 4),
                        "frame \(index), quadrant \(quadrant): \(actual) against 255 − \(source) = \(expected)")
            }
        }
    }

    @Test(arguments: [false, true])
    func aThrowingCompositorFailsTheExportNamingTheTimeAndLeavesNoFile(concurrent: Bool) async throws {
        let scratch = try ScratchDirectory("compositor")
        defer { scratch.remove() }
        let (composition, video) = try await Self.edit(Self.quadrants(), in: scratch)
        let before = scratch.contents
        let url = scratch.file("failed.mp4")
        let session = Self.session(composition, video, Self.h264,
                                   compositor: TestCompositors.Throwing(failureTime: MediaTime(seconds: 1),
                                                                        supportsConcurrentRendering: concurrent), to: url)
        do {
            try await session.export()
            Issue.record("the export succeeded")
        } catch let error as ExportError {
            guard case .customCompositorFailed(let time, let message) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(time == MediaTime(seconds: 1))
            #expect(message == "boom at the requested frame")
            #expect(error.description.contains("1.000 s"), "\(error)")
        }
        #expect(session.status == .failed)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(scratch.contents == before, "no temporary file is left: \(scratch.contents)")
    }

    @Test func theImageGeneratorAndTheLosslessExportAgreePixelForPixel() async throws {
        let scratch = try ScratchDirectory("compositor")
        defer { scratch.remove() }
        let (composition, video) = try await Self.edit(.testPattern(), in: scratch)
        let url = scratch.file("lossless.mov")
        try await Self.session(composition, video, VideoSettings(codec: .ffv1), compositor: TestCompositors.Inverting(), to: url)
            .export()
        let indices = [0, 17, 30, 59]
        let times = indices.map { Self.frameDuration * Int64($0) }
        var generator = AssetImageGenerator(asset: composition)
        generator.videoComposition = video
        generator.customVideoCompositor = TestCompositors.Inverting()
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        var generated: [VideoFrame] = []
        for try await item in generator.images(for: times) { generated.append(item.image) }
        let exported = try await Readback.frames(of: url, at: times)
        var plain = generator
        plain.customVideoCompositor = nil
        let original = try await plain.image(at: times[1]).image
        #expect(generated.count == indices.count && exported.count == indices.count)
        for (i, index) in indices.enumerated() where i < generated.count && i < exported.count {
            let comparison = try FrameComparison(actual: generated[i], expected: exported[i])
            #expect(comparison.isIdentical, "frame \(index): generator vs FFV1 export: \(comparison)")
        }
        // And the compositor did run: the picture is the built-in one inverted (within the conversions' rounding).
        let p = try #require(generated[1].pixel(x: 40, y: 200)), q = try #require(original.pixel(x: 40, y: 200))
        #expect(abs(Int(p.red) - (255 - Int(q.red))) <= 3 && abs(Int(p.green) - (255 - Int(q.green))) <= 3,
                "inverted \(p) against built-in \(q)")
    }

    @Test(arguments: [true, false])
    func framesStayInOrderAndAConcurrentCompositorOverlaps(concurrent: Bool) async throws {
        let scratch = try ScratchDirectory("compositor")
        defer { scratch.remove() }
        let (composition, video) = try await Self.edit(Self.quadrants(), in: scratch)
        // A serial compositor must not wait for an overlap that never comes: no deadline for it.
        let compositor = TestCompositors.Counting(concurrent: concurrent, frameDuration: Self.frameDuration,
                                                  overlapDeadline: concurrent ? 20 : 0)
        let url = scratch.file("order.mov")
        try await Self.session(composition, video, VideoSettings(codec: .ffv1), compositor: compositor, to: url).export()
        if concurrent {
            #expect(compositor.maximumInFlight >= 2, "requests in flight at once: \(compositor.maximumInFlight)")
            #expect(compositor.maximumInFlight <= VideoCompositionRequest.maximumConcurrentRequests)
        } else {
            #expect(compositor.maximumInFlight == 1)
            #expect(compositor.requestedTimes == (0..<60).map { Self.frameDuration * Int64($0) })
        }
        #expect(compositor.requestedTimes.count == 60)
        #expect(Set(compositor.requestedTimes).count == 60)
        let frames = try await Readback.frames(of: url, at: (0..<60).map { Self.frameDuration * Int64($0) })
        #expect(frames.count == 60)
        for (index, frame) in frames.enumerated() {
            let level = Double(index * 4)
            let actual = frame.meanColor(in: Rect(x: 100, y: 100, width: 20, height: 20))
            #expect(colorMatches(actual, (level, level, level), tolerance: 1.5), "frame \(index): \(actual), wanted \(level)")
        }
    }

    @Test func settingsThatCannotCarryACompositorAreRefusedBeforeWriting() async throws {
        let scratch = try ScratchDirectory("compositor")
        defer { scratch.remove() }
        let (composition, video) = try await Self.edit(Self.quadrants(), in: scratch)
        let smart = Self.session(composition, video, Self.h264, compositor: TestCompositors.PassThrough(), to: scratch.file("a.mp4"))
        smart.smartRendering = true
        await #expect(throws: ExportError.self) { try await smart.export() }
        if case .unsupportedSettings(let reason)? = smart.error as? ExportError {
            #expect(reason.contains("custom video compositor"))
        } else {
            Issue.record("wrong error: \(String(describing: smart.error))")
        }
        let passthrough = AssetExportSession(asset: composition, preset: .passthrough)
        passthrough.outputURL = scratch.file("b.mov")
        passthrough.customVideoCompositor = TestCompositors.PassThrough()
        await #expect(throws: ExportError.self) { try await passthrough.export() }
        if case .passthroughNotPossible? = passthrough.error as? ExportError {} else {
            Issue.record("wrong error: \(String(describing: passthrough.error))")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("a.mp4").path))
    }
}
