import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Exports of the colour fixtures, measured at the bars and patches with the engine's own decoder at the
/// output's native depth (``PlanePicture``). Figures in docs/document-format.md, "Colour".
@Suite("Colour: HDR in, SDR or HDR out")
struct ColourExportTests {
    /// Fast H.264 (CRF 0 = lossless, 8-bit SDR unless `bitDepth` says 10).
    static let sdrSettings = ExportSettings(
        video: VideoSettings(codec: .h264, rateControl: .constantQuality(0), encoderPreset: "ultrafast"), audio: nil)
    /// Fast HEVC (x265 CRF 0): keeps HDR sources HDR, as `HEVCHighestQuality` does.
    static let hevcSettings = ExportSettings(
        video: VideoSettings(codec: .hevc, rateControl: .constantQuality(0), encoderPreset: "ultrafast"), audio: nil)

    /// The whole clip as a composition.
    static func composition(_ path: String) async throws -> MutableComposition {
        let asset = try await Fixture.asset(path)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        return composition
    }

    static func export(_ composition: MutableComposition, _ settings: ExportSettings, to url: URL,
                       videoComposition: MutableVideoComposition? = nil) async throws -> PlanePicture {
        let session = AssetExportSession(asset: composition, settings: settings)
        session.outputURL = url
        session.videoComposition = videoComposition
        try await session.export()
        return try await PlanePicture.read(url)
    }

    /// The hue (degrees) an exact HLG → BT.709 conversion gives a 75 % bar lit in channels `lit` (R, G, B):
    /// equal linear light in the lit channels (the HLG OOTF and any ratio-keeping tone map scale all three
    /// alike), BT.2020 → BT.709 in linear light, negatives clipped, BT.1886 encoding. Magenta lands at ≈ 307.5°,
    /// not 300°: BT.2020 magenta lies outside BT.709 (its green goes negative and is clipped).
    static func exactHue(_ lit: (Double, Double, Double)) -> Double {
        let m = [[1.6605, -0.5876, -0.0728], [-0.1246, 1.1329, -0.0083], [-0.0182, -0.1006, 1.1187]]
        let rgb = m.map { row in max(0, row[0] * lit.0 + row[1] * lit.1 + row[2] * lit.2) }.map { pow($0, 1 / 2.4) }
        let degrees = atan2(3.0.squareRoot() * (rgb[1] - rgb[2]), 2 * rgb[0] - rgb[1] - rgb[2]) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    static let bars: [(index: Int, name: String, lit: (Double, Double, Double))] = [
        (1, "yellow", (1, 1, 0)), (2, "cyan", (0, 1, 1)), (3, "green", (0, 1, 0)),
        (4, "magenta", (1, 0, 1)), (5, "red", (1, 0, 0)), (6, "blue", (0, 0, 1)),
    ]

    @Test(arguments: ["hdr/hlg.mov", "hdr/pq.mp4"])
    func sdrExportOfHDRIsToneMappedWithItsHues(path: String) async throws {
        let scratch = try ScratchDirectory("colour-sdr")
        defer { scratch.remove() }
        let picture = try await Self.export(try await Self.composition(path), Self.sdrSettings, to: scratch.file("sdr.mp4"))
        #expect(picture.bitDepth == 8 && picture.pixelFormat == "yuv420p")
        #expect(picture.primaries == "bt709" && picture.transfer == "bt709" && picture.matrix == "bt709")
        // Reference white (HLG 75 %, PQ 203 cd/m²) lands near SDR diffuse white, as BT.2408 says.
        let white = picture.patch(2).y
        #expect((190...235).contains(white), "reference white at Y \(white)")
        #expect(abs(picture.patch(0).y - 16) <= 1, "black at Y \(picture.patch(0).y)")
        for bar in Self.bars {
            let hue = PlanePicture.hue(picture.bar(bar.index), bitDepth: 8, kr: 0.2126, kb: 0.0722)
            let expected = Self.exactHue(bar.lit)
            #expect(angleDistance(hue, expected) <= 5, "\(bar.name): hue \(hue)°, exact conversion \(expected)°")
        }
        // Only the peak patch (x 240 ..< 320, y 120 ..< 180) reaches white; no bar or other patch is clipped to 235.
        var clipped = 0
        for y in 0..<180 {
            for x in 0..<320 where !(x >= 240 && y >= 120) && picture.luma[y * 320 + x] >= 235 { clipped += 1 }
        }
        #expect(clipped == 0, "\(clipped) pixels outside the peak patch at Y ≥ 235")
        #expect(picture.patch(3).y >= 230, "peak at Y \(picture.patch(3).y)")
    }

    @Test(arguments: [("hdr/hlg.mov", "arib-std-b67"), ("hdr/pq.mp4", "smpte2084")])
    func hdrExportKeepsTenBitsAndTheCodeValues(path: String, transfer: String) async throws {
        let scratch = try ScratchDirectory("colour-hdr")
        defer { scratch.remove() }
        let source = try await PlanePicture.read(Fixture.url(path))
        let url = scratch.file("hdr.mp4")
        let picture = try await Self.export(try await Self.composition(path), Self.hevcSettings, to: url)
        #expect(picture.bitDepth == 10 && picture.pixelFormat == "yuv420p10le")
        #expect(picture.primaries == "bt2020" && picture.transfer == transfer && picture.matrix == "bt2020nc")
        for index in 0..<4 {
            #expect(abs(picture.patch(index).y - source.patch(index).y) <= 4,
                    "patch \(index): Y \(picture.patch(index).y), source \(source.patch(index).y)")
        }
        for index in 0..<8 {
            let (out, reference) = (picture.bar(index), source.bar(index))
            #expect(abs(out.y - reference.y) <= 4 && abs(out.cb - reference.cb) <= 4 && abs(out.cr - reference.cr) <= 4,
                    "bar \(index): \(out), source \(reference)")
        }
        let track = try #require(try await Asset.load(from: url).tracks(withMediaType: .video).first)
        #expect(track.video?.color.transfer == transfer && track.video?.color.bitDepth == 10)
    }

    @Test func pqExportCarriesTheHDR10MetadataInTheStreamAndTheContainer() async throws {
        let scratch = try ScratchDirectory("colour-pq")
        defer { scratch.remove() }
        let url = scratch.file("pq.mp4")
        let picture = try await Self.export(try await Self.composition("hdr/pq.mp4"), Self.hevcSettings, to: url)
        let expected = try #require(try await Fixture.asset("hdr/pq.mp4").tracks(withMediaType: .video).first?.video?.color)
        // SEI, as decoded pictures show it.
        #expect(picture.masteringDisplay == expected.masteringDisplay)
        #expect(picture.contentLightLevel == ContentLightLevel(maxContentLightLevel: 1000, maxFrameAverageLightLevel: 400))
        // The container's mdcv / clli boxes, read back as stream side data (no decoding needed for them).
        let probed = try #require(try await Asset.load(from: url).tracks(withMediaType: .video).first?.video?.color)
        #expect(probed.masteringDisplay == expected.masteringDisplay)
        #expect(probed.contentLightLevel == expected.contentLightLevel)
    }

    /// Opacity blends code values, not light: `overlay` mixes the encoded (non-linear) values, as AVFoundation's
    /// compositor and every stock FFmpeg blend do. HLG 75 % (Y 721) at opacity 0.5 over black (Y 64) gives
    /// (721 + 64) / 2 = 392.5; half its light would be HLG ≈ 596.
    @Test func halfOpacityOfAnHDRLayerHalvesTheCodeValueNotTheLight() async throws {
        let scratch = try ScratchDirectory("colour-opacity")
        defer { scratch.remove() }
        let composition = try await Self.composition("hdr/hlg.mov")
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        for index in videoComposition.instructions.indices {
            for layer in videoComposition.instructions[index].layerInstructions.indices {
                videoComposition.instructions[index].layerInstructions[layer].setOpacity(0.5, at: .zero)
            }
        }
        let picture = try await Self.export(composition, Self.hevcSettings, to: scratch.file("half.mp4"),
                                            videoComposition: videoComposition)
        #expect(picture.bitDepth == 10 && picture.transfer == "arib-std-b67")
        #expect(abs(picture.patch(2).y - 392.5) <= 4, "75 % patch at half opacity: Y \(picture.patch(2).y)")
        #expect(abs(picture.patch(0).y - 64) <= 2, "black stays black: Y \(picture.patch(0).y)")
    }
}

extension ColourExportTests {
    @Test func proResExportOfHLGIsTenBit422HQTagged() async throws {
        let scratch = try ScratchDirectory("colour-prores")
        defer { scratch.remove() }
        let settings = ExportSettings(video: VideoSettings(codec: .prores), audio: nil)
        let session = AssetExportSession(asset: try await Self.composition("hdr/hlg.mov"), settings: settings)
        let url = scratch.file("hlg.mov")
        session.outputURL = url
        try await session.export()
        let picture = try await PlanePicture.read(url)
        #expect(picture.pixelFormat == "yuv422p10le")
        #expect(picture.primaries == "bt2020" && picture.transfer == "arib-std-b67" && picture.matrix == "bt2020nc")
        #expect(abs(picture.patch(2).y - 721) <= 4, "75 % patch Y \(picture.patch(2).y)")
        #expect(abs(picture.bar(5).cr - 848) <= 4, "red bar Cr \(picture.bar(5).cr)")
        let track = try #require(try await Asset.load(from: url).tracks(withMediaType: .video).first)
        #expect(track.codecName == "prores")
    }
}
