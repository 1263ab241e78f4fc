import Foundation
import Splice
import SpliceFFmpeg
import SpliceTestSupport
import Testing

/// A custom compositor on an HDR canvas: source frames handed over as `.rgba64` in the canvas's HLG (not
/// tone-mapped), the compositor's `.rgba64` picture taken back into the 10-bit canvas; an `.rgba8` compositor is
/// refused there. Fixture layout: Fixtures/make-hdr-fixtures (hlg.mov: patches Y 64/502/721/940 at x = 40+80i).
@Suite("Custom compositor on an HDR canvas")
struct CustomCompositorHDRTests {
    /// 65535 − x in R, G and B of the top-most source, alpha kept; records the formats it was given.
    final class WideInverting: VideoCompositing {
        let sourcePixelFormat = VideoFrame.PixelFormat.rgba64
        private let seen = Locked<Set<String>>([])
        /// "pixelFormat/dynamicRange" of every source frame received.
        var formats: Set<String> { seen.withLock { $0 } }

        func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
            guard let id = request.sourceTrackIDs.first, let source = request.sourceFrame(byTrackID: id) else {
                throw TestCompositors.Failure(message: "no source picture at \(request.compositionTime)")
            }
            seen.withLock { _ = $0.insert("\(source.pixelFormat.rawValue)/\(source.dynamicRange.rawValue)") }
            var pixels = source.pixels
            for row in 0..<source.height {
                for x in 0..<source.width {
                    let o = row * source.bytesPerRow + x * 8
                    for channel in 0..<3 {
                        let value = UInt16(pixels[o + 2 * channel]) | UInt16(pixels[o + 2 * channel + 1]) << 8
                        let inverted = 65535 - value
                        pixels[o + 2 * channel] = UInt8(inverted & 0xFF)
                        pixels[o + 2 * channel + 1] = UInt8(inverted >> 8)
                    }
                }
            }
            guard let frame = VideoFrame(width: source.width, height: source.height, bytesPerRow: source.bytesPerRow,
                                         pixels: pixels, pixelFormat: .rgba64, dynamicRange: source.dynamicRange)
            else { throw TestCompositors.Failure(message: "bad shape") }
            return frame
        }
    }

    /// The picture at `time` of `asset`, 16-bit in its own dynamic range.
    static func picture(_ composition: MutableComposition, at time: MediaTime = .zero) async throws -> VideoFrame {
        var generator = AssetImageGenerator(asset: composition)
        generator.dynamicRangePolicy = .matchSource
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        return try await generator.image(at: time).image
    }

    /// The inverting compositor on the 10-bit HLG canvas, exported as HEVC Main 10 (x265 CRF 0): the patches and the
    /// bars come back as 65535 − x of the source's 16-bit values, within 200 (under 3 ten-bit steps of 74.8: the
    /// two `zscale` conversions and the encoder), still HLG.
    @Test func anInvertingCompositorOnAnHLGCanvasGivesTheInverse() async throws {
        let scratch = try ScratchDirectory("compositor-hdr")
        defer { scratch.remove() }
        let composition = try await ColourExportTests.composition("hdr/hlg.mov")
        let compositor = WideInverting()
        let url = scratch.file("inverted.mov")
        let session = AssetExportSession(asset: composition, settings: ColourExportTests.hevcSettings)
        session.outputURL = url
        session.customVideoCompositor = compositor
        try await session.export()
        #expect(compositor.formats == ["rgba64/hlg"], "\(compositor.formats)")

        let exported = try await Asset.load(from: url)
        var readBack = MutableComposition()
        try readBack.insertTimeRange(TimeRange(start: .zero, duration: exported.duration), of: exported, at: .zero)
        let output = try await Self.picture(readBack)
        #expect(output.pixelFormat == .rgba64 && output.dynamicRange == .hlg, "\(output.pixelFormat) \(output.dynamicRange)")
        let source = try await Self.picture(composition)
        let points = [40, 120, 200, 280].map { (x: $0, y: 150) } + (0..<8).map { (x: 20 + 40 * $0, y: 60) }
        for point in points {
            let rect = Rect(x: Double(point.x - 6), y: Double(point.y - 6), width: 12, height: 12)
            let before = source.meanColor16(in: rect), after = output.meanColor16(in: rect)
            for (name, b, a) in [("R", before.red, after.red), ("G", before.green, after.green), ("B", before.blue, after.blue)] {
                #expect(abs(a - (65535 - b)) <= 200, "(\(point.x), \(point.y)) \(name): \(a), expected 65535 − \(b) = \(65535 - b)")
            }
        }
    }

    /// An `.rgba8` compositor cannot carry the HDR canvas: refused before writing, naming `.rgba64`.
    @Test func anEightBitCompositorIsRefusedOnAnHDRCanvas() async throws {
        let scratch = try ScratchDirectory("compositor-hdr-refused")
        defer { scratch.remove() }
        let composition = try await ColourExportTests.composition("hdr/hlg.mov")
        let session = AssetExportSession(asset: composition, settings: ColourExportTests.hevcSettings)
        session.outputURL = scratch.file("refused.mov")
        session.customVideoCompositor = TestCompositors.Inverting()
        await #expect(throws: ExportError.self) { try await session.export() }
        if case .unsupportedSettings(let reason)? = session.error as? ExportError {
            #expect(reason.contains(".rgba64") && reason.contains("HLG"), "\(reason)")
        } else {
            Issue.record("wrong error: \(String(describing: session.error))")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("refused.mov").path))
    }
}
