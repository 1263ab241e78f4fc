import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Pictures of HDR compositions from ``AssetImageGenerator``: RGBA8 SDR tone-mapped as an SDR export by
/// default, RGBA64 keeping the HDR code values with `.matchSource`. Fixture layout: Fixtures/make-hdr-fixtures.
@Suite("Colour: image generator")
struct ColourImageGeneratorTests {
    /// The picture at 0 s, exactly (no key-frame snapping).
    static func picture(_ composition: MutableComposition, policy: AssetImageGenerator.DynamicRangePolicy,
                        videoComposition: MutableVideoComposition? = nil) async throws -> VideoFrame {
        var generator = AssetImageGenerator(asset: composition)
        generator.videoComposition = videoComposition
        generator.dynamicRangePolicy = policy
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        return try await generator.image(at: .zero).image
    }

    /// Full-range 16-bit value of a 10-bit limited-range code value: (Y − 64) / 876 × 65535.
    static func sixteenBit(_ code: Double) -> Double { (code - 64) / 876 * 65535 }

    /// HLG 75 % (10-bit Y 721) comes out as 0.75 × 65535 = 49151 in all three channels, within 40 (about half a
    /// 10-bit step, 74.8): `zscale` converts the 10-bit canvas to 16 bits without rounding through 8 bits.
    @Test func sixteenBitPicturesKeepTheHLGCodeValues() async throws {
        let composition = try await ColourExportTests.composition("hdr/hlg.mov")
        let frame = try await Self.picture(composition, policy: .matchSource)
        #expect(frame.pixelFormat == .rgba64 && frame.dynamicRange == .hlg)
        #expect(frame.width == 320 && frame.height == 180 && frame.bytesPerRow == 320 * 8)
        let patches: [(x: Int, code: Double)] = [(40, 64), (120, 502), (200, 721), (280, 940)]
        for patch in patches {
            let value = frame.meanColor16(in: Rect(x: Double(patch.x - 6), y: 144, width: 12, height: 12))
            let expected = Self.sixteenBit(patch.code)
            for (name, channel) in [("R", value.red), ("G", value.green), ("B", value.blue)] {
                #expect(abs(channel - expected) <= 40, "patch Y \(patch.code): \(name) \(channel), expected \(expected)")
            }
            #expect(value.alpha == 65535)
        }
        // The 75 % red bar (x 200 ..< 240): R' 0.75, G' = B' = 0.
        let red = frame.meanColor16(in: Rect(x: 214, y: 54, width: 12, height: 12))
        #expect(abs(red.red - 49151) <= 64 && red.green <= 64 && red.blue <= 64, "red bar \(red)")
        // The 8-bit view of the same values: 0.75 × 255.
        #expect(frame.pixel(x: 200, y: 150).map { abs(Int($0.red) - 191) <= 1 } == true)
        // A 16-bit PNG of it decodes to the same size (libavcodec's png, rgba64be).
        #expect(try frame.pngData().count > 1000)
    }

    /// The default: RGBA8 SDR, the same tone mapping as an SDR export (the export's lossless H.264 picture, its Y'CbCr
    /// turned into R'G'B' with the BT.709 matrix, within 2 of the generator's values at the patches and bars).
    @Test func defaultPicturesMatchTheSDRExport() async throws {
        let scratch = try ScratchDirectory("colour-generator")
        defer { scratch.remove() }
        let composition = try await ColourExportTests.composition("hdr/hlg.mov")
        let frame = try await Self.picture(composition, policy: .forceSDR)
        #expect(frame.pixelFormat == .rgba8 && frame.dynamicRange == .sdr)
        let export = try await ColourExportTests.export(composition, ColourExportTests.sdrSettings, to: scratch.file("sdr.mp4"))
        func rgb(_ ycc: (y: Double, cb: Double, cr: Double)) -> (Double, Double, Double) {
            let y = (ycc.y - 16) * 255 / 219, cb = (ycc.cb - 128) * 255 / 224, cr = (ycc.cr - 128) * 255 / 224
            return (y + 1.5748 * cr, y - 0.1873 * cb - 0.4681 * cr, y + 1.8556 * cb)
        }
        var places: [(name: String, x: Int, y: Int, ycc: (y: Double, cb: Double, cr: Double))] = []
        for index in 0..<4 { places.append(("patch \(index)", 40 + 80 * index, 150, export.patch(index))) }
        for index in 0..<8 { places.append(("bar \(index)", 20 + 40 * index, 60, export.bar(index))) }
        for place in places {
            let expected = rgb(place.ycc)
            let got = frame.meanColor(in: Rect(x: Double(place.x - 6), y: Double(place.y - 6), width: 12, height: 12))
            let difference = max(abs(got.red - expected.0), abs(got.green - expected.1), abs(got.blue - expected.2))
            #expect(difference <= 2, "\(place.name): generator \(got), export \(expected)")
        }
        // Reference white lands near SDR diffuse white, as in the export (Y 190–235 ≈ R'G'B' 203–255).
        #expect((203...255).contains(Int(frame.meanColor(in: Rect(x: 194, y: 144, width: 12, height: 12)).red)))
    }

    /// `.forceSDR` wins over HDR colour fields (the picture is tone-mapped, RGBA8); `.matchSource` of an SDR clip
    /// is SDR in 16 bits (Y 180 → (180 − 16) / 219 × 65535).
    @Test func policyAndFieldsTogether() async throws {
        let hlg = try await ColourExportTests.composition("hdr/hlg.mov")
        var fields = MutableVideoComposition(propertiesOf: hlg)
        fields.colorPrimaries = .itu2020
        fields.colorTransferFunction = .hlg
        fields.colorYCbCrMatrix = .itu2020
        let forced = try await Self.picture(hlg, policy: .forceSDR, videoComposition: fields)
        #expect(forced.pixelFormat == .rgba8 && forced.dynamicRange == .sdr)
        let kept = try await Self.picture(hlg, policy: .matchSource, videoComposition: fields)
        #expect(kept.dynamicRange == .hlg && abs(kept.meanColor16(in: Rect(x: 194, y: 144, width: 12, height: 12)).red - 49151) <= 40)

        let sdr = try await Self.picture(try await ColourExportTests.composition("hdr/sdr.mp4"), policy: .matchSource)
        #expect(sdr.pixelFormat == .rgba64 && sdr.dynamicRange == .sdr)
        let white = sdr.meanColor16(in: Rect(x: 194, y: 144, width: 12, height: 12)).red
        #expect(abs(white - (180 - 16) / 219 * 65535) <= 40, "SDR 75 % patch \(white)")
    }
}
