import Foundation
import Testing
import Splice
import SpliceTestSupport

/// What the loader reports about each video track's colour, on the fixtures of
/// `Fixtures/make-hdr-fixtures` (facts in Fixtures/README.md).
@Suite("Colour: probe facts")
struct ColourProbeTests {
    @Test(arguments: [
        ("hdr/hlg.mov", "bt2020", "arib-std-b67", "bt2020nc", ColorProperties.Range.limited, 10, DynamicRange.hlg),
        ("hdr/pq.mp4", "bt2020", "smpte2084", "bt2020nc", .limited, 10, .pq),
        ("hdr/sdr.mp4", "bt709", "bt709", "bt709", .limited, 8, .sdr),
        ("hdr/sd601.mp4", "smpte170m", "smpte170m", "smpte170m", .limited, 8, .sdr),
        ("hdr/full.mp4", "bt709", "bt709", "bt709", .full, 8, .sdr),
    ])
    func eachTrackStatesItsColour(path: String, primaries: String, transfer: String, matrix: String,
                                  range: ColorProperties.Range, depth: Int, dynamicRange: DynamicRange) async throws {
        let video = try #require(try await Fixture.asset(path).tracks(withMediaType: .video).first?.video)
        #expect(video.color.primaries == primaries)
        #expect(video.color.transfer == transfer)
        #expect(video.color.matrix == matrix)
        #expect(video.color.range == range)
        #expect(video.color.bitDepth == depth)
        #expect(video.color.dynamicRange == dynamicRange)
        #expect(video.pixelFormat == (depth == 10 ? "yuv420p10le" : range == .full ? "yuvj420p" : "yuv420p"))
    }

    @Test func pqClipCarriesItsHDR10MetadataFromTheSEI() async throws {
        let color = try #require(try await Fixture.asset("hdr/pq.mp4").tracks(withMediaType: .video).first?.video?.color)
        let display = try #require(color.masteringDisplay)
        // x265 master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1): P3-D65.
        #expect(display.red == Chromaticity(x: 0.68, y: 0.32))
        #expect(display.green == Chromaticity(x: 0.265, y: 0.69))
        #expect(display.blue == Chromaticity(x: 0.15, y: 0.06))
        #expect(display.whitePoint == Chromaticity(x: 0.3127, y: 0.329))
        #expect(display.maxLuminance == 1000 && display.minLuminance == 0.0001)
        #expect(color.contentLightLevel == ContentLightLevel(maxContentLightLevel: 1000, maxFrameAverageLightLevel: 400))
        #expect(color.peakLuminance == 1000)
    }

    @Test func hlgClipHasNoStaticMetadataAsAnIPhoneWritesIt() async throws {
        let color = try #require(try await Fixture.asset("hdr/hlg.mov").tracks(withMediaType: .video).first?.video?.color)
        #expect(color.masteringDisplay == nil && color.contentLightLevel == nil)
        #expect(color.peakLuminance == 1000)
        #expect(color.dynamicRange.displayName == "HDR (HLG)")
    }

    @Test func fixturesDecodeToTheirDesignedCodeValues() async throws {
        let hlg = try await PlanePicture.read(Fixture.url("hdr/hlg.mov"))
        #expect(hlg.bitDepth == 10 && hlg.pixelFormat == "yuv420p10le")
        #expect([0, 1, 2, 3].map { hlg.patch($0).y } == [64, 502, 721, 940])
        #expect(hlg.bar(5).y == 237 && hlg.bar(5).cb == 418 && hlg.bar(5).cr == 848)
        let pq = try await PlanePicture.read(Fixture.url("hdr/pq.mp4"))
        #expect([0, 1, 2, 3].map { pq.patch($0).y } == [64, 502, 573, 723])
        #expect(pq.masteringDisplay != nil && pq.contentLightLevel?.maxContentLightLevel == 1000)
    }
}
