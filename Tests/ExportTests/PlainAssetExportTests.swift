import Foundation
import SpliceTesting
import Testing
import Splice
import SpliceTestSupport

/// A plain loaded file goes straight into an export session or an image generator, as any `AVAsset` does in
/// AVFoundation.
@Suite("Plain assets: export and thumbnails without a composition")
struct PlainAssetExportTests {
    /// 1 s of a 320 × 240 picture, left half red and right half blue, 30 fps, with a 1 kHz tone at 48 kHz.
    static func source(in scratch: ScratchDirectory) throws -> URL {
        let url = scratch.file("source.mov")
        try SyntheticMedia.write(
            video: "color=c=0xFF0000:s=160x240:r=30[l];color=c=0x0000FF:s=160x240:r=30[r];[l][r]hstack",
            audio: "sine=f=1000:r=48000", duration: MediaTime(seconds: 1), to: url)
        return url
    }

    @Test func transcodingAFileIsOneLine() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let input = try Self.source(in: scratch), output = scratch.file("out.mp4")

        try await AssetExportSession(asset: Asset.load(from: input), preset: .preset640x480).export(to: output)

        let result = try await Asset.load(from: output)
        let video = try #require(result.tracks(withMediaType: .video).first)
        #expect(video.video?.frameCount == 30)
        #expect(video.timeRange.duration == MediaTime(seconds: 1))
        #expect(video.naturalSize == Size(width: 320, height: 240))
        #expect(result.tracks(withMediaType: .audio).first?.timeRange.duration == MediaTime(seconds: 1))
        let (frame, _) = try await AssetImageGenerator(asset: result).image(at: MediaTime(value: 1, timescale: 2))
        let left = frame.meanColor(in: Rect(x: 40, y: 80, width: 80, height: 80))
        let right = frame.meanColor(in: Rect(x: 200, y: 80, width: 80, height: 80))
        #expect(left.red > 230 && left.blue < 25, "left half red: \(left)")
        #expect(right.blue > 230 && right.red < 25, "right half blue: \(right)")
    }

    @Test func aThumbnailOfAFileNeedsNoComposition() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let asset = try await Asset.load(from: Self.source(in: scratch))
        let generator = try AssetImageGenerator(asset: asset)
        #expect(generator.asset.tracks.map(\.mediaType) == [.video, .audio])
        let (frame, _) = try await generator.image(at: MediaTime(value: 1, timescale: 4))
        #expect(frame.width == 320 && frame.height == 240)
        // Through the YUV canvas: within ±2 of the source's pure colours.
        func near(_ x: Int, _ y: Int, _ expected: [Int]) -> Bool {
            guard let pixel = frame.pixel(x: x, y: y) else { return false }
            return zip([pixel.red, pixel.green, pixel.blue], expected).allSatisfy { abs(Int($0) - $1) <= 2 }
        }
        #expect(near(10, 10, [255, 0, 0]), "\(String(describing: frame.pixel(x: 10, y: 10)))")
        #expect(near(310, 230, [0, 0, 255]), "\(String(describing: frame.pixel(x: 310, y: 230)))")
    }

    @Test func aFileWithoutAFiniteDurationIsRefusedNamingIt() throws {
        let photo = AssetTrack(
            assetURL: URL(fileURLWithPath: "/media/photo.png"), trackID: 1, mediaType: .video,
            timeRange: TimeRange(start: .zero, duration: .positiveInfinity), naturalTimeScale: 600, codecName: "png",
            streamIndex: 0,
            video: VideoTrackFormat(naturalSize: Size(width: 64, height: 64), nominalFrameRate: 0, minFrameDuration: .invalid))
        let still = Asset(url: photo.assetURL, duration: .positiveInfinity, tracks: [photo])
        #expect {
            try AssetExportSession(asset: still, preset: .preset640x480)
        } throws: { error in
            guard case .invalidComposition(let reason) = error as? ExportError else { return false }
            return reason.contains("/media/photo.png")
        }
    }
}
