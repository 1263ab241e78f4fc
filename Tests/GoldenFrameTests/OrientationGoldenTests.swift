import Foundation
import Splice
import SpliceTesting
import Testing
import SpliceTestSupport

/// Real phone clips stored sideways or upside down (`../shared/media`, beside the package; not in the repository):
/// without a video composition the generator uses `propertiesOf`, which must show them upright. The analytic check:
/// the upright frame equals the coded picture (rendered untransformed) carried through the track's
/// `preferredTransform`, pixel for pixel.
@Suite("Golden frames: orientation of real phone clips")
struct OrientationGoldenTests {
    typealias S = GoldenScenario

    static let m01 = Fixture.sharedMedia("M01_iphone4s_rot-90_ts600_aac-mono44k.mov")
    static let m03 = Fixture.sharedMedia("M03_android_720p_rot180_vfr_aac-mono48k.mp4")

    /// Renders `url` at `time` upright (propertiesOf) and as coded, checks that the first is the second carried
    /// through `preferredTransform`, and compares a reduced upright picture with the golden.
    func check(_ url: URL, name: String, expectedTransform: AffineTransform2D, uprightSize: Size, goldenSize: Size,
               at time: MediaTime) async throws {
        let asset = try await Asset.load(from: url)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        let track = try #require(composition.tracks(withMediaType: .video).first)
        #expect(track.preferredTransform == expectedTransform)
        let coded = try #require(asset.tracks(withMediaType: .video).first?.naturalSize)

        let propertiesOf = MutableVideoComposition(propertiesOf: composition)
        #expect(propertiesOf.renderSize == uprightSize)
        let upright = try await S.render(composition, nil, at: time)
        #expect(upright.width == uprightSize.width && upright.height == uprightSize.height)

        var raw = VideoCompositionLayerInstruction(trackID: track.trackID)
        raw.setTransform(.identity, at: .zero)
        let codedVideo = MutableVideoComposition(
            renderSize: coded, frameDuration: propertiesOf.frameDuration,
            instructions: [VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: composition.duration), layerInstructions: [raw])])
        let stored = try await S.render(composition, codedVideo, at: time)

        // Carry the stored picture through the preferred transform, pixel centre to pixel centre.
        let inverse = try #require(expectedTransform.inverted())
        var pixels = [UInt8](repeating: 0, count: upright.width * upright.height * 4)
        var outside = 0
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let source = inverse.apply(to: Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                let sx = Int(source.x.rounded(.down)), sy = Int(source.y.rounded(.down))
                guard sx >= 0, sy >= 0, sx < stored.width, sy < stored.height else { outside += 1; continue }
                let o = (y * upright.width + x) * 4, i = sy * stored.bytesPerRow + sx * 4
                for c in 0..<4 { pixels[o + c] = stored.pixels[i + c] }
            }
        }
        #expect(outside == 0, "the preferred transform maps every upright pixel into the coded picture")
        let turned = try #require(VideoFrame(width: upright.width, height: upright.height, bytesPerRow: upright.width * 4, pixels: pixels))
        let comparison = try FrameComparison(actual: upright, expected: turned)
        print("\(name): upright render vs coded picture through preferredTransform: \(comparison)")
        #expect(comparison.psnr >= 45, "\(comparison)")

        let small = try await S.render(composition, nil, at: time, maximumSize: goldenSize)
        S.expectGolden(small, name)
    }

    /// iPhone 4S, coded 568×320 with rotation −90: upright 320×568, preferredTransform (0, 1, −1, 0, 320, 0).
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable && FileManager.default.fileExists(atPath: m01.path), "../shared/media/M01 is absent: portrait clip not checked"))
    func portraitMinus90Upright() async throws {
        try await check(Self.m01, name: "portrait-m01", expectedTransform: AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: 320, ty: 0),
                        uprightSize: Size(width: 320, height: 568), goldenSize: Size(width: 180, height: 320), at: MediaTime(seconds: 1))
    }

    /// Android 1280×720 with rotation 180: upright 1280×720, preferredTransform (−1, 0, 0, −1, 1280, 720).
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable && FileManager.default.fileExists(atPath: m03.path), "../shared/media/M03 is absent: upside-down clip not checked"))
    func upsideDownUpright() async throws {
        try await check(Self.m03, name: "upside-down-m03", expectedTransform: AffineTransform2D(a: -1, b: 0, c: 0, d: -1, tx: 1280, ty: 720),
                        uprightSize: Size(width: 1280, height: 720), goldenSize: Size(width: 320, height: 180), at: MediaTime(seconds: 1))
    }
}
