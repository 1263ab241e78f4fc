import Foundation
import Testing
@testable import Export
import Splice
import SpliceTestSupport

/// The rule that decides a composition's colour space (``ExportPlanner/canvasColor(for:sources:settings:)``) and
/// the colour fields of the model and settings in JSON.
@Suite("Colour: planning and model")
struct ColourPlanningTests {
    static func track(_ path: String) async throws -> AssetTrack {
        try #require(try await Fixture.asset(path).tracks(withMediaType: .video).first)
    }

    static let composition = MutableVideoComposition(renderSize: Size(width: 320, height: 180),
                                                     frameDuration: MediaTime(value: 1, timescale: 5))
    static let hevc = VideoSettings(codec: .hevc)
    static let h264 = VideoSettings(codec: .h264)

    @Test func nilFieldsAreDecidedFromTheSourcesAndTheOutput() async throws {
        let hlg = try await Self.track("hdr/hlg.mov"), pq = try await Self.track("hdr/pq.mp4")
        let sdr = try await Self.track("hdr/sdr.mp4")
        func color(_ sources: [AssetTrack], _ settings: VideoSettings?) throws -> CanvasColor {
            try ExportPlanner.canvasColor(for: Self.composition, sources: sources, settings: settings)
        }
        // Every source HDR, output can carry 10 bits: HDR, HLG unless all are PQ.
        #expect(try color([hlg], Self.hevc) == CanvasColor(dynamicRange: .hlg, bitDepth: 10))
        #expect(try color([pq, pq], Self.hevc) == CanvasColor(dynamicRange: .pq, bitDepth: 10))
        #expect(try color([hlg, pq], Self.hevc) == CanvasColor(dynamicRange: .hlg, bitDepth: 10))
        #expect(try color([hlg], VideoSettings(codec: .prores)).isHDR)
        #expect(try color([hlg], VideoSettings(codec: .h264, bitDepth: 10)) == CanvasColor(dynamicRange: .hlg, bitDepth: 10))
        // An 8-bit output, a mixed timeline, or the image generator: SDR BT.709.
        #expect(try color([hlg], Self.h264) == .standard)
        #expect(try color([hlg, sdr], Self.hevc) == .standard)
        #expect(try color([hlg], nil) == .standard)
        #expect(try color([sdr], VideoSettings(codec: .hevc, bitDepth: 10)) == CanvasColor(dynamicRange: .sdr, bitDepth: 10))
    }

    @Test func setFieldsChooseTheSpaceAndMustAgree() async throws {
        let sdr = try await Self.track("hdr/sdr.mp4")
        var composition = Self.composition
        composition.colorTransferFunction = .pq
        #expect(try ExportPlanner.canvasColor(for: composition, sources: [sdr], settings: Self.hevc)
                == CanvasColor(dynamicRange: .pq, bitDepth: 10))
        composition.colorPrimaries = .itu709
        #expect(throws: ExportError.self) { try ExportPlanner.canvasColor(for: composition, sources: [sdr], settings: Self.hevc) }
        composition = Self.composition
        composition.colorPrimaries = .itu2020
        #expect(try ExportPlanner.canvasColor(for: composition, sources: [sdr], settings: Self.hevc).dynamicRange == .hlg)
        #expect(throws: ExportError.unsupportedSettings("an HDR (hlg) composition needs bitDepth 10, not 8")) {
            try ExportPlanner.canvasColor(for: composition, sources: [sdr], settings: VideoSettings(codec: .hevc, bitDepth: 8))
        }
        #expect(throws: ExportError.unsupportedSettings("bitDepth 12: 8 or 10 bits per component")) {
            try ExportPlanner.canvasColor(for: Self.composition, sources: [sdr], settings: VideoSettings(bitDepth: 12))
        }
    }

    /// Without libzimg the conversions cannot be built: the plan is refused naming `zscale`, before any file is
    /// opened; an SDR-only composition still plans.
    @Test func aBuildWithoutZscaleIsRefusedBeforeWriting() async throws {
        let hlg = try await Self.track("hdr/hlg.mov"), sdr = try await Self.track("hdr/sdr.mp4")
        func plan(_ source: AssetTrack) throws -> VideoPlan {
            var composition = MutableComposition()
            let id = try composition.addMutableTrack(withMediaType: .video)
            try composition.insertTimeRange(source.timeRange, of: source, at: .zero, intoTrackWithID: id)
            return try ExportPlanner.videoPlan(
                composition: composition, tracks: composition.tracks,
                videoComposition: MutableVideoComposition(propertiesOf: composition), range: source.timeRange,
                maximumSize: nil, settings: Self.h264, hasFilter: { $0 != "zscale" })
        }
        #expect(throws: ExportError.filterUnavailable("zscale")) { try plan(hlg) }
        #expect(try plan(sdr).color == .standard)
        #expect(MediaLibrary.hasFilter(named: "zscale") && MediaLibrary.hasFilter(named: "tonemap"),
                "this machine's FFmpeg has libzimg")
    }

    @Test func colourFieldsRoundTripThroughJSONAndAreOptional() throws {
        var composition = Self.composition
        composition.colorPrimaries = .itu2020
        composition.colorTransferFunction = .hlg
        composition.colorYCbCrMatrix = .itu2020
        let data = try JSONEncoder().encode(composition)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"colorTransferFunction\":\"ITU_R_2100_HLG\""), "\(text)")
        #expect(try JSONDecoder().decode(MutableVideoComposition.self, from: data) == composition)
        let plain = try JSONDecoder().decode(MutableVideoComposition.self, from: JSONEncoder().encode(Self.composition))
        #expect(plain.colorPrimaries == nil && plain.colorTransferFunction == nil && plain.colorYCbCrMatrix == nil)
        #expect(!String(decoding: try JSONEncoder().encode(Self.composition), as: UTF8.self).contains("color"))
        let settings = try JSONDecoder().decode(VideoSettings.self, from: Data(#"{"codec":"hevc","bitDepth":10,"rateControl":{"constantQuality":20},"encoderPreset":"medium"}"#.utf8))
        #expect(settings.bitDepth == 10)
    }

    /// `HEVCHighestQuality` keeps HDR sources HDR; H.264 presets tone-map (AVFoundation's behaviour).
    @Test func presetsFollowTheRule() async throws {
        let hlg = try await Self.track("hdr/hlg.mov")
        let hevc = try #require(ExportPreset.hevcHighestQuality.settings?.video)
        let h264 = try #require(ExportPreset.highestQuality.settings?.video)
        #expect(try ExportPlanner.canvasColor(for: Self.composition, sources: [hlg], settings: hevc).dynamicRange == .hlg)
        #expect(try ExportPlanner.canvasColor(for: Self.composition, sources: [hlg], settings: h264) == .standard)
    }
}
