import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// Layer effects on a 10-bit HLG canvas (the HLG fixture: 75 % bars above, grey patches Y 64/502/721/940 below —
/// R′G′B′ 0, 0.5, 0.75, 1 — each 80 px wide). The effects run on the HLG-coded signal, as they run on gamma-coded
/// BT.709 on SDR. The image generator's `.matchSource` picture (RGBA64: 16-bit full range, 0.5 = 32767.5) gives the
/// values the definitions predict, and an FFV1 export (10-bit, lossless) carries the same values as Y′CbCr codes.
@Suite("Effects on HDR canvases")
struct EffectsHDRTests {
    /// BT.2020 luma weights.
    static let kr = 0.2627, kb = 0.0593

    /// The 10-bit limited-range luma code of R′G′B′ (0 … 1): 64 + 876 · Y′ (BT.2020).
    static func lumaCode(_ r: Double, _ g: Double, _ b: Double) -> Double {
        64 + 876 * (kr * r + (1 - kr - kb) * g + kb * b)
    }

    /// The HLG fixture with `edit` applied to its one layer instruction.
    static func scene(_ edit: (inout VideoCompositionLayerInstruction) -> Void) async throws
        -> (MutableComposition, MutableVideoComposition) {
        let composition = try await ColourExportTests.composition("hdr/hlg.mov")
        var video = MutableVideoComposition(propertiesOf: composition)
        edit(&video.instructions[0].layerInstructions[0])
        return (composition, video)
    }

    /// The mean 16-bit colour over the 12 × 12 square centred at (x, y) of the `.matchSource` picture at 0 s.
    static func picture(_ scene: (MutableComposition, MutableVideoComposition)) async throws -> VideoFrame {
        let frame = try await ColourImageGeneratorTests.picture(scene.0, policy: .matchSource, videoComposition: scene.1)
        #expect(frame.pixelFormat == .rgba64 && frame.dynamicRange == .hlg)
        return frame
    }

    static func mean(_ frame: VideoFrame, _ x: Int, _ y: Int) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        frame.meanColor16(in: Rect(x: Double(x - 6), y: Double(y - 6), width: 12, height: 12))
    }

    /// Exports `scene` losslessly (FFV1 keeps the 10-bit HLG canvas) and reads back its planes.
    static func export(_ scene: (MutableComposition, MutableVideoComposition), _ name: String) async throws -> PlanePicture {
        let scratch = try ScratchDirectory("effects-hdr")
        defer { scratch.remove() }
        let picture = try await ColourExportTests.export(
            scene.0, ExportSettings(video: VideoSettings(codec: .ffv1), audio: nil), to: scratch.file("\(name).mkv"),
            videoComposition: scene.1)
        #expect(picture.bitDepth == 10 && picture.transfer == "arib-std-b67" && picture.matrix == "bt2020nc")
        return picture
    }

    /// Exposure −1 stop halves the coded R′G′B′ (`exposure` in 32-bit float): the 50 %, 75 % and 100 % patches
    /// become 0.25, 0.375 and 0.5 — 16384, 24576, 32768 in 16 bits within 80 (about one 10-bit step), and luma codes
    /// 283, 392.5, 502 within 2 in the export.
    @Test func exposureScalesTheCodedSignalAtFullDepth() async throws {
        let scene = try await Self.scene { $0.setEffect(.exposure, -1, at: .zero) }
        let frame = try await Self.picture(scene)
        let exported = try await Self.export(scene, "exposure")
        for (index, level) in [(1, 0.5), (2, 0.75), (3, 1.0)] {
            let value = Self.mean(frame, 40 + 80 * index, 150)
            let expected = level / 2 * 65535
            for channel in [value.red, value.green, value.blue] {
                #expect(abs(channel - expected) <= 80, "patch \(index): \(value), expected \(expected)")
            }
            let y = exported.patch(index).y
            #expect(abs(y - Self.lumaCode(level / 2, level / 2, level / 2)) <= 2, "exported patch \(index) Y \(y)")
        }
    }

    /// A generated `.cube` (size 2) mapping R′G′B′ to (1 − R′, G′, B′), exact under tetrahedral interpolation, run in
    /// 16-bit RGB: the 75 % patch becomes (0.25, 0.75, 0.75) and the 75 % red bar (0.25, 0, 0); the export's luma
    /// follows BT.2020's weights (within 2 codes). Red comes back 2 codes of Cr high (measured: Cr 290 for 288, so R
    /// +217 … +295 in 16 bits): swscale's 16-bit RGB → 10-bit BT.2020 Y′CbCr is not exact in chroma; hence 400
    /// (0.6 %) on red here, and 3 codes on the exported Cr.
    @Test func aLookupTableRunsInSixteenBitRGB() async throws {
        let scratch = try ScratchDirectory("effects-hdr-lut")
        defer { scratch.remove() }
        let cube = scratch.file("invert-red.cube")
        var text = "LUT_3D_SIZE 2\n"
        for b in 0...1 { for g in 0...1 { for r in 0...1 { text += "\(1 - r) \(g) \(b)\n" } } }
        try text.write(to: cube, atomically: true, encoding: .utf8)
        let scene = try await Self.scene { $0.addLookupTable(cube) }
        let frame = try await Self.picture(scene)
        let patch = Self.mean(frame, 200, 150)
        #expect(abs(patch.red - 0.25 * 65535) <= 400 && abs(patch.green - 0.75 * 65535) <= 100
                    && abs(patch.blue - 0.75 * 65535) <= 100, "75 % patch \(patch)")
        let red = Self.mean(frame, 220, 60)
        #expect(abs(red.red - 0.25 * 65535) <= 400 && red.green <= 100 && red.blue <= 100, "red bar \(red)")
        let exported = try await Self.export(scene, "lut")
        let y = exported.patch(2).y
        #expect(abs(y - Self.lumaCode(0.25, 0.75, 0.75)) <= 2, "exported 75 % patch Y \(y)")
        // Cr = 512 + 896 · (R′ − Y′) / (2 · (1 − Kr)).
        let cr = exported.patch(2).cr
        let crExpected = 512 + 896 * (0.25 - (Self.lumaCode(0.25, 0.75, 0.75) - 64) / 876) / (2 * (1 - Self.kr))
        #expect(abs(cr - crExpected) <= 3, "exported 75 % patch Cr \(cr), expected \(crExpected)")
    }

    /// Blur (σ = 4 canvas pixels, `gblur` on the 10-bit picture) across the edge between the 75 % and 100 % patches
    /// at x = 240: the two columns beside the edge average the two levels (0.875 → 57344), and 40 px away (10 σ) the
    /// patch keeps its level (49151); the export's luma agrees (Y 830.5 at the edge, 721 inside).
    @Test func blurRunsOnTheTenBitPicture() async throws {
        let scene = try await Self.scene { $0.setEffect(.blur, 4, at: .zero) }
        let frame = try await Self.picture(scene)
        var edge = 0.0
        for y in 144..<156 {
            for x in 239...240 { edge += Double(frame.pixel16(x: x, y: y)?.green ?? 0) / 24 }
        }
        #expect(abs(edge - 0.875 * 65535) <= 200, "edge \(edge)")
        #expect(abs(Self.mean(frame, 200, 150).green - 0.75 * 65535) <= 80)
        let exported = try await Self.export(scene, "blur")
        var edgeY = 0.0
        for y in 144..<156 {
            for x in 239...240 { edgeY += Double(exported.luma[y * exported.width + x]) / 24 }
        }
        #expect(abs(edgeY - Self.lumaCode(0.875, 0.875, 0.875)) <= 3, "exported edge Y \(edgeY)")
        #expect(abs(exported.patch(2).y - 721) <= 1)
    }

    /// Brightness, contrast and saturation (`eq`) and vignette work on 8-bit pictures only in FFmpeg 5.1: an HLG
    /// composition with one is refused before anything is opened, naming the effect and the canvas; the same edit
    /// exported as SDR plans.
    @Test func eightBitOnlyEffectsAreRefusedByName() async throws {
        for parameter in [VideoEffectParameter.brightness, .contrast, .saturation, .vignette] {
            let (composition, video) = try await Self.scene { $0.setEffect(parameter, 0.5, at: .zero) }
            func plan(_ settings: VideoSettings) throws -> VideoPlan {
                try ExportPlanner.videoPlan(composition: composition, tracks: composition.tracks, videoComposition: video,
                                            range: composition.tracks[0].timeRange, maximumSize: nil, settings: settings)
            }
            #expect {
                _ = try plan(ColourPlanningTests.hevc)
            } throws: { error in
                guard case ExportError.unsupportedSettings(let reason) = error else { return false }
                return reason.contains("the \(parameter.rawValue) effect") && reason.contains("8-bit pictures only")
                    && reason.contains("HDR")
            }
            #expect(try plan(ColourPlanningTests.h264).color == .standard)
        }
    }
}
