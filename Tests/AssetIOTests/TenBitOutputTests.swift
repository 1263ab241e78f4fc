import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// 10-bit and 16-bit decoded pictures of a 10-bit HEVC clip (BT.2020 HLG, lossless bars) against FFmpeg's own
/// conversion, with the colour tags carried.
@Suite("AssetReader 10-bit pictures")
struct TenBitOutputTests {
    static func read(_ path: String, as format: PixelBuffer.PixelFormat) async throws -> [SampleBuffer] {
        let asset = try await Fixture.asset(path)
        let reader = AssetReader(asset: asset)
        let output = AssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0],
                                            outputSettings: .video(pixelFormat: format))
        try reader.add(output)
        reader.startReading()
        var samples: [SampleBuffer] = []
        for try await sample in output { samples.append(sample) }
        #expect(reader.status == .completed)
        return samples
    }

    /// The little-endian 16-bit sample at byte `offset` of `plane`.
    static func sample(_ plane: PixelBuffer.Plane, row: Int, byte offset: Int) -> Int {
        let start = row * plane.bytesPerRow + offset
        return Int(plane.bytes[start]) | Int(plane.bytes[start + 1]) << 8
    }

    @Test("P010 pictures equal `ffmpeg -pix_fmt p010le` frame for frame, bars at their code values, BT.2020 HLG tags",
          arguments: ["hdr/hlg.mov", "hdr/pq.mp4"])
    func p010(path: String) async throws {
        let samples = try await Self.read(path, as: .p010)
        let expected = try await CommandLineTool.frameDigests(of: Fixture.url(path), pixelFormat: "p010le")
        #expect(samples.count == 5)
        #expect(try samples.map { try FrameDigest.md5(of: $0.imageBuffer!.planes.flatMap(\.bytes)) } == expected)
        let picture = try #require(samples.first?.imageBuffer)
        #expect(picture.planes.map(\.bytesPerRow) == [640, 640] && picture.planes.map(\.rows) == [180, 90])
        // 75 % white bar at (20, 60): Y 721 (HLG) / 573 (PQ), Cb Cr 512, each in the high 10 bits.
        let white = path.hasPrefix("hdr/hlg") ? 721 : 573
        #expect(Self.sample(picture.planes[0], row: 60, byte: 20 * 2) == white << 6)
        #expect(Self.sample(picture.planes[1], row: 30, byte: 10 * 4) == 512 << 6)
        #expect(Self.sample(picture.planes[1], row: 30, byte: 10 * 4 + 2) == 512 << 6)
        #expect(picture.color.range == .limited && picture.color.matrix == "bt2020nc" && picture.color.primaries == "bt2020")
        #expect(picture.color.transfer == (path.hasPrefix("hdr/hlg") ? "arib-std-b67" : "smpte2084"))
        #expect(picture.color.bitDepth == 10)
    }

    @Test("RGBA64 pictures equal `ffmpeg -pix_fmt rgba64le` frame for frame; full range, 16 bits, transfer kept")
    func rgba64() async throws {
        let samples = try await Self.read("hdr/hlg.mov", as: .rgba64)
        let expected = try await CommandLineTool.frameDigests(of: Fixture.url("hdr/hlg.mov"), pixelFormat: "rgba64le")
        #expect(samples.count == 5)
        #expect(try samples.map { try FrameDigest.md5(of: $0.imageBuffer!.planes[0].bytes) } == expected)
        let picture = try #require(samples.first?.imageBuffer)
        #expect(picture.planes[0].bytesPerRow == 320 * 8)
        #expect(picture.color.range == .full && picture.color.transfer == "arib-std-b67" && picture.color.bitDepth == 16)
        // The 75 % white bar, Y 721 limited range: (721 − 64) / 876 = 0.75 of full scale in every component.
        let white = try #require(picture.rgba64Pixel(x: 20, y: 60))
        #expect(white[0...2].allSatisfy { abs(Int($0) - 49_151) <= 300 } && white[3] == 65_535, "\(white)")
        // The red bar (x 220): R well above G and B.
        let red = try #require(picture.rgba64Pixel(x: 220, y: 60))
        #expect(red[0] > 40_000 && red[1] < 8_000 && red[2] < 8_000, "\(red)")
    }

    @Test("a composition of an HLG clip read as P010 stays HDR: BT.2020 HLG canvas, the bars' code values kept")
    func compositionStaysHDR() async throws {
        let asset = try await Fixture.asset("hdr/hlg.mov")
        let reader = AssetReader(asset: asset)
        let output = AssetReaderVideoCompositionOutput(videoTracks: asset.tracks(withMediaType: .video),
                                                       videoSettings: DecodedVideoSettings(pixelFormat: .p010))
        try reader.add(output)
        reader.startReading()
        var samples: [SampleBuffer] = []
        for try await sample in output { samples.append(sample) }
        #expect(samples.count == 5)
        #expect(samples.map(\.presentationTime) == (0..<5).map { MediaTime(value: Int64($0), timescale: 5) })
        let picture = try #require(samples.first?.imageBuffer)
        #expect(picture.color.transfer == "arib-std-b67" && picture.color.primaries == "bt2020" && picture.color.bitDepth == 10)
        #expect(abs(Self.sample(picture.planes[0], row: 60, byte: 20 * 2) - 721 << 6) <= 1 << 6)
    }
}
