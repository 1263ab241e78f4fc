import Foundation
import Splice
import SpliceTesting
import Testing
import SpliceTestSupport

/// Shared pieces of the golden scenarios: the goldens directory, the canvas, building compositions, rendering a
/// frame through `AssetImageGenerator` (the export's compositor) and checking it against its golden.
enum GoldenScenario {
    /// `Fixtures/goldens`, recording per `SPLICE_RECORD_GOLDENS`.
    static let goldens = GoldenFrames(directory: Fixture.goldens)
    /// The tolerance for every scenario golden: the render is deterministic on one FFmpeg build (PSNR ∞ here); the
    /// margin absorbs rounding differences of other FFmpeg builds' scalers.
    static let tolerance = GoldenTolerance(minimumPSNR: 40)
    /// The canvas of every scenario.
    static let canvas = Size(width: 320, height: 240)
    /// 30 fps.
    static let frameDuration = MediaTime(value: 1, timescale: 30)

    /// A source clip placed on its own composition video track.
    struct Clip {
        var asset: Asset
        var at: MediaTime = .zero
        var duration: MediaTime = MediaTime(seconds: 2)
    }

    /// A composition with one video track per clip, in order; returns the track IDs.
    static func composition(_ clips: [Clip], naturalSize: Size = .zero) throws -> (MutableComposition, [Int32]) {
        var composition = MutableComposition(naturalSize: naturalSize)
        var ids: [Int32] = []
        for clip in clips {
            let track = try #require(clip.asset.tracks(withMediaType: .video).first)
            let id = try composition.addMutableTrack(withMediaType: .video)
            try composition.insertTimeRange(TimeRange(start: .zero, duration: clip.duration), of: track, at: clip.at, intoTrackWithID: id)
            ids.append(id)
        }
        return (composition, ids)
    }

    /// A video composition over `[0, duration)` with one instruction holding `layers` (top-most first).
    static func videoComposition(
        _ layers: [VideoCompositionLayerInstruction], duration: MediaTime = MediaTime(seconds: 2), background: Color? = nil,
        size: Size = canvas
    ) -> MutableVideoComposition {
        MutableVideoComposition(
            renderSize: size, frameDuration: frameDuration,
            instructions: [VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: duration),
                                                       layerInstructions: layers, backgroundColor: background)])
    }

    /// The exact picture at `time` (zero tolerance), through the export's compositor.
    static func render(_ composition: MutableComposition, _ video: MutableVideoComposition?, at time: MediaTime,
                       maximumSize: Size? = nil) async throws -> VideoFrame {
        var generator = AssetImageGenerator(asset: composition)
        generator.videoComposition = video
        generator.maximumSize = maximumSize
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let (image, actual) = try await generator.image(at: time)
        #expect(actual == time)
        return image
    }

    /// Compares `frame` with the golden `name` and prints the figure (`golden <name>: PSNR …`).
    @discardableResult
    static func expectGolden(_ frame: VideoFrame, _ name: String, tolerance: GoldenTolerance = tolerance,
                             sourceLocation: SourceLocation = #_sourceLocation) -> GoldenResult {
        let result = goldens.expect(frame, matchesGolden: name, tolerance: tolerance, sourceLocation: sourceLocation)
        print("golden \(name): \(result.comparison.map(\.description) ?? result.outcome.rawValue)")
        return result
    }

    /// A quadrants source (`SyntheticSource.quadrants`) of `size`, 2 s at 30 fps, lossless RGB.
    static func quadrants(in scratch: ScratchDirectory, size: Size = canvas, name: String = "quadrants") async throws -> Asset {
        try await SyntheticMedia.makeAsset(
            video: .quadrants(size: size), duration: MediaTime(seconds: 2), in: scratch.url, name: name)
    }

    /// A bundled exact colour fixture: `solid/red-2s-ffv1.mkv` and friends (320x240, 2 s).
    static func solid(_ colour: String) async throws -> Asset {
        try await Asset.load(from: Fixture.url("solid/\(colour)-2s-ffv1.mkv"))
    }
}
