import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// SDR and HDR clips on one timeline: each direction of output, levels measured per clip, and a
/// cross-dissolve between them. Fixture clips are 1 s at 5 fps (frame k at k/5 s).
@Suite("Colour: mixed SDR and HDR timelines")
struct ColourMixedTimelineTests {
    static let frame = MediaTime(value: 1, timescale: 5)

    static func video(_ path: String) async throws -> AssetTrack {
        try #require(try await Fixture.asset(path).tracks(withMediaType: .video).first)
    }

    static func export(_ composition: MutableComposition, _ videoComposition: MutableVideoComposition,
                       codec: VideoSettings.Codec, to url: URL) async throws {
        let settings = ExportSettings(
            video: VideoSettings(codec: codec, rateControl: .constantQuality(0), encoderPreset: "ultrafast"), audio: nil)
        let session = AssetExportSession(asset: composition, settings: settings)
        session.outputURL = url
        session.videoComposition = videoComposition
        try await session.export()
    }

    /// SDR clip (0 ..< 1 s) then HLG clip (1 ..< 2 s) on one track.
    static func sequence() async throws -> (MutableComposition, MutableVideoComposition) {
        let sdr = try await video("hdr/sdr.mp4"), hlg = try await video("hdr/hlg.mov")
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(sdr.timeRange, of: sdr, at: .zero, intoTrackWithID: id)
        try composition.insertTimeRange(hlg.timeRange, of: hlg, at: MediaTime(seconds: 1), intoTrackWithID: id)
        return (composition, MutableVideoComposition(propertiesOf: composition))
    }

    /// The same timeline exported as SDR (the default for a mixed timeline) and as HLG (asked for): the SDR clip
    /// keeps its codes in SDR and lands per BT.2408 in HLG (white 235 → 721, 75 % 180 → 618); the HLG clip keeps
    /// its codes in HLG and is tone-mapped in SDR (75 % → 226). Re-exporting the HLG file as SDR gives the SDR
    /// clip's levels back (the tone mapping inverts BT.2408 below 162 cd/m²).
    @Test func eachDirectionMapsTheOtherKind() async throws {
        let scratch = try ScratchDirectory("colour-mixed")
        defer { scratch.remove() }
        var (composition, videoComposition) = try await Self.sequence()

        let sdrURL = scratch.file("sdr.mp4")
        try await Self.export(composition, videoComposition, codec: .hevc, to: sdrURL)
        let sdrPart = try await PlanePicture.read(sdrURL, frame: 2), hlgPart = try await PlanePicture.read(sdrURL, frame: 7)
        #expect(sdrPart.bitDepth == 8 && sdrPart.transfer == "bt709", "a mixed timeline is SDR by default")
        #expect(abs(sdrPart.patch(2).y - 180) <= 1 && abs(sdrPart.patch(3).y - 235) <= 1, "SDR clip: \(sdrPart.patch(2).y)")
        #expect(abs(hlgPart.patch(2).y - 226) <= 2, "HLG clip tone-mapped: \(hlgPart.patch(2).y)")

        videoComposition.colorTransferFunction = .hlg
        let hdrURL = scratch.file("hlg.mp4")
        try await Self.export(composition, videoComposition, codec: .hevc, to: hdrURL)
        let sdrInHDR = try await PlanePicture.read(hdrURL, frame: 2), hlgInHDR = try await PlanePicture.read(hdrURL, frame: 7)
        #expect(sdrInHDR.bitDepth == 10 && sdrInHDR.transfer == "arib-std-b67")
        #expect(abs(sdrInHDR.patch(3).y - 721) <= 4, "SDR white → HLG reference white: \(sdrInHDR.patch(3).y)")
        #expect(abs(sdrInHDR.patch(2).y - 618) <= 4, "SDR 75 %: \(sdrInHDR.patch(2).y)")
        #expect(abs(sdrInHDR.patch(0).y - 64) <= 2)
        #expect(abs(hlgInHDR.patch(2).y - 721) <= 4 && abs(hlgInHDR.patch(3).y - 940) <= 4)

        // Round trip: the HLG file's SDR part back to SDR.
        let (_, again) = try await Readback.composition(of: hdrURL)
        let backURL = scratch.file("back.mp4")
        try await Self.export(again, MutableVideoComposition(propertiesOf: again), codec: .h264, to: backURL)
        let back = try await PlanePicture.read(backURL, frame: 2)
        #expect(abs(back.patch(1).y - 126) <= 2 && abs(back.patch(2).y - 180) <= 2,
                "SDR → HLG → SDR: 50 % \(back.patch(1).y), 75 % \(back.patch(2).y)")
    }

    /// A cross-dissolve from the SDR clip to the HLG clip, in both output spaces: the 75 % white bar moves from the
    /// SDR clip's level to the HLG clip's in equal steps (a third of the difference per frame over the 0.6 s
    /// dissolve), and the frames just outside the dissolve show each clip at its own level: no jump.
    @Test(arguments: [VideoTransferFunction.itu709, .hlg])
    func crossDissolveHasNoBrightnessJump(transfer: VideoTransferFunction) async throws {
        let scratch = try ScratchDirectory("colour-dissolve")
        defer { scratch.remove() }
        let sdr = try await Self.video("hdr/sdr.mp4"), hlg = try await Self.video("hdr/hlg.mov")
        var composition = MutableComposition()
        let a = try composition.addMutableTrack(withMediaType: .video)
        let b = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(sdr.timeRange, of: sdr, at: .zero, intoTrackWithID: a)
        let start = MediaTime(value: 2, timescale: 5)
        try composition.insertTimeRange(hlg.timeRange, of: hlg, at: start, intoTrackWithID: b)
        var videoComposition = MutableVideoComposition(renderSize: Size(width: 320, height: 180), frameDuration: Self.frame)
        videoComposition.colorTransferFunction = transfer
        var first = VideoCompositionLayerInstruction(trackID: a)
        first.setOpacity(1, at: .zero)
        var last = VideoCompositionLayerInstruction(trackID: b)
        last.setOpacity(1, at: .zero)
        let dissolve = TimeRange(start: start, duration: MediaTime(value: 3, timescale: 5))
        videoComposition.instructions = [
            VideoCompositionInstruction(timeRange: TimeRange(start: .zero, duration: start), layerInstructions: [first]),
            .crossDissolve(from: a, to: b, timeRange: dissolve),
            VideoCompositionInstruction(timeRange: TimeRange(start: dissolve.end, end: composition.duration), layerInstructions: [last]),
        ]
        let url = scratch.file("dissolve.mp4")
        try await Self.export(composition, videoComposition, codec: .hevc, to: url)
        var levels: [Double] = []
        for index in 0..<7 { levels.append(try await PlanePicture.read(url, frame: index).bar(0).y) }
        let (from, to) = (levels[0], levels[6])
        let expected = transfer == .hlg ? (618.0, 721.0) : (180.0, 226.0)
        let tolerance = transfer == .hlg ? 4.0 : 2.0
        #expect(abs(from - expected.0) <= tolerance && abs(to - expected.1) <= tolerance, "\(levels)")
        for index in 1..<7 {
            let step = levels[index] - levels[index - 1]
            #expect(step >= -tolerance && step <= (to - from) / 3 + tolerance, "frame \(index): \(levels)")
        }
        #expect(abs(levels[3] - (from + (to - from) / 3)) <= tolerance && abs(levels[4] - (from + 2 * (to - from) / 3)) <= tolerance,
                "dissolve frames: \(levels)")
    }
}
