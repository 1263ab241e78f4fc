import Foundation
import Testing
import Splice
import SpliceTestSupport

/// What `splice probe` reports: the frame rate of an export whose last frame the edit list shortens, and the
/// rotation and upright size of a rotated clip (`probe --json` adds `displaySize` and `rotation` in degrees).
@Suite("probe facts")
struct ProbeFactsTests {
    /// A 30 fps export of 3.98 s has 120 frames, the last one shortened to 0.4 frame by the edit list: the rate is
    /// still 30 fps (it read 120 / 3.98 s = 30.15).
    @Test func exportWithAShortenedLastFrameIs30Fps() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let clip = try await Fixture.asset("canonical/clipA.mp4")
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(3_980)), of: clip, at: .zero)
        let result = try await MeasuredExport.export(composition, to: scratch.file("out.mp4"), settings: MeasuredExport.settings(crf: 30))
        let video = try #require(result.tracks(withMediaType: .video).first?.video)
        #expect(video.frameCount == 120)
        #expect(abs(video.nominalFrameRate - 30) < 1e-9, "\(video.nominalFrameRate) fps")
    }

    @Test(arguments: [(180.0, 180, 320, 240), (-90.0, 90, 240, 320), (90.0, 270, 240, 320), (0.0, 0, 320, 240)])
    func rotationAndDisplaySizeAreInTheJSON(displayMatrix: Double, degrees: Int, width: Int, height: Int) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let url = try RotationMetadataTests.quadrantClip(rotation: displayMatrix, in: scratch, frames: 3)
        let asset = try await Asset.load(from: url)
        let video = try #require(asset.tracks.first?.video)
        #expect(JSONText.rotationDegrees(of: video.preferredTransform) == degrees)
        let json = try JSONText.pretty(probing: asset)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let track = try #require((object["tracks"] as? [[String: Any]])?.first?["video"] as? [String: Any])
        #expect(track["rotation"] as? Int == degrees, "\(json)")
        let size = try #require(track["displaySize"] as? [String: Any])
        #expect(size["width"] as? Int == width && size["height"] as? Int == height, "\(size)")
    }
}
