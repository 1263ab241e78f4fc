import Foundation
import SpliceTestSupport
import Testing
import Splice

/// `splice frame --dynamic-range match-source`: the 16-bit picture `AssetImageGenerator`'s `.matchSource` gives,
/// written as a 16-bit PNG (docs/cli.md); the default stays 8-bit SDR.
@Suite("frame dynamic range")
struct FrameDynamicRangeTests {
    /// The PNG's bit depth per channel and colour type, from its IHDR chunk (bytes 24 and 25).
    static func header(_ url: URL) throws -> (bitDepth: UInt8, colorType: UInt8) {
        let bytes = [UInt8](try BinaryFile.read(url))
        try #require(bytes.count > 26 && bytes[12..<16].elementsEqual("IHDR".utf8))
        return (bytes[24], bytes[25])
    }

    @Test func matchSourceWritesTheSixteenBitHLGPicture() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let source = Fixture.url("hdr/hlg.mov")
        try scratch.write("hlg.json", #"{ "version": 1, "clips": [ { "source": "\#(source.path)" } ] }"#)
        let run = try await SpliceTool.run(["frame", "hlg.json", "--at", "0.5s", "--dynamic-range", "match-source",
                                            "-o", "hdr.png"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("wrote hdr.png (320x180 16-bit HDR (HLG), the frame at "), "\(run.stderr)")
        #expect(try Self.header(scratch.file("hdr.png")) == (16, 6))

        // Byte for byte the library's picture: its HLG code values are checked in ColourImageGeneratorTests.
        let asset = try await Asset.load(from: source)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        var generator = AssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        generator.dynamicRangePolicy = .matchSource
        let (picture, _) = try await generator.image(at: MediaTime(value: 1, timescale: 2))
        #expect(picture.pixelFormat == .rgba64 && picture.dynamicRange == .hlg)
        #expect(try BinaryFile.read(scratch.file("hdr.png")) == picture.pngData())

        let plain = try await SpliceTool.run(["frame", "hlg.json", "--at", "0.5s", "-o", "sdr.png"], in: scratch.url)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.hasPrefix("wrote sdr.png (320x180 8-bit SDR, "), "\(plain.stderr)")
        #expect(try Self.header(scratch.file("sdr.png")) == (8, 6))

        let typo = try await SpliceTool.run(["frame", "hlg.json", "--at", "0.5s", "--dynamic-range", "hdr",
                                             "-o", "x.png"], in: scratch.url)
        #expect(typo.status == 2, "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.png").path))
    }
}
