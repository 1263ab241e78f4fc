import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// 8-bit sources in other matrices and ranges are converted exactly into the BT.709 canvas, and the image
/// generator gives tone-mapped SDR of an HDR source.
@Suite("Colour: source conversions")
struct ColourSourceConversionTests {
    /// The BT.709 limited-range codes of the fixtures' 75 % bars (Fixtures/README.md, `hdr/sdr.mp4`).
    static let bt709Bars: [(Double, Double, Double)] = [
        (180, 128, 128), (168, 44, 136), (145, 147, 44), (133, 63, 52), (63, 193, 204), (51, 109, 212), (28, 212, 120),
    ]

    /// A BT.601 SD clip and a full-range BT.709 clip, exported as BT.709 limited range: the same bars and patches as
    /// the BT.709 clip, within 2 code values (the matrix conversion rounds once). Primaries are not converted
    /// (SMPTE 170M and BT.709 differ by less than a code value on these bars, and players ignore it too).
    @Test(arguments: ["hdr/sd601.mp4", "hdr/full.mp4"])
    func convertedToBT709Limited(path: String) async throws {
        let scratch = try ScratchDirectory("colour-convert")
        defer { scratch.remove() }
        let composition = try await ColourExportTests.composition(path)
        let url = scratch.file("out.mp4")
        let picture = try await ColourExportTests.export(composition, ColourExportTests.sdrSettings, to: url)
        #expect(picture.matrix == "bt709" && picture.pixelFormat == "yuv420p")
        for (index, expected) in Self.bt709Bars.enumerated() {
            let bar = picture.bar(index)
            #expect(abs(bar.y - expected.0) <= 2 && abs(bar.cb - expected.1) <= 2 && abs(bar.cr - expected.2) <= 2,
                    "bar \(index): \(bar), BT.709 \(expected)")
        }
        let patches = (0..<4).map { picture.patch($0).y }
        for (got, expected) in zip(patches, [16.0, 126, 180, 235]) {
            #expect(abs(got - expected) <= 2, "patches \(patches)")
        }
    }

    /// The image generator renders SDR: an HLG source is tone-mapped as an SDR export is (75 % → Y 226, RGB ≈ 244),
    /// its red bar stays red.
    @Test func imageGeneratorToneMapsHDR() async throws {
        let composition = try await ColourExportTests.composition("hdr/hlg.mov")
        var generator = AssetImageGenerator(asset: composition)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        var frames: [VideoFrame] = []
        for try await item in generator.images(for: [.zero]) { frames.append(item.image) }
        let frame = try #require(frames.first)
        let white = frame.meanColor(in: Rect(x: 164, y: 134, width: 32, height: 32))
        #expect((235...250).contains(white.red) && abs(white.red - white.green) <= 2 && abs(white.red - white.blue) <= 2,
                "75 % patch: \(white)")
        let red = frame.meanColor(in: Rect(x: 204, y: 44, width: 32, height: 32))
        #expect(red.red > 150 && red.green < 20 && red.blue < 20, "red bar: \(red)")
    }
}
