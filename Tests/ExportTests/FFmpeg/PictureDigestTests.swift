import Testing
import SpliceFFmpeg
internal import CMedia

/// The verifier's picture digest (`Frame.pictureDigest`, MurmurHash3 over each plane's visible rows in place):
/// it must see every visible pixel, the last half-height chroma row of an odd-height picture included, and nothing
/// of the rows' padding.
@Suite("Picture digests")
struct PictureDigestTests {
    /// A 33 × 17 `yuv420p` picture (chroma 17 × 9) with every visible byte set from its position; its padding (the
    /// rows' alignment) filled with `padding`.
    static func picture(padding: UInt8) throws -> Frame {
        let frame = try Frame()
        try frame.allocatePicture(width: 33, height: 17, pixelFormat: AV_PIX_FMT_YUV420P)
        for plane in 0..<3 {
            let width = plane == 0 ? 33 : 17, height = plane == 0 ? 17 : 9
            let stride = frame.bytesPerRow(ofPlane: plane)
            let data = try #require(frame.plane(plane))
            for y in 0..<height {
                for x in 0..<stride { data[y * stride + x] = x < width ? UInt8(truncatingIfNeeded: plane * 70 + y * 13 + x) : padding }
            }
        }
        return frame
    }

    @Test func seesEveryVisiblePixelAndNoPadding() throws {
        let reference = try Self.picture(padding: 0).pictureDigest()
        let padded = try Self.picture(padding: 0xAB)
        #expect(padded.bytesPerRow(ofPlane: 0) > 33, "the test needs padded rows")
        #expect(try padded.pictureDigest() == reference, "padding must not count")
        #expect(try Self.picture(padding: 0).pictureDigest() == reference, "the same picture, the same digest")
        // One byte changed in each plane's last visible row, last column: each is seen.
        for (plane, width, height) in [(0, 33, 17), (1, 17, 9), (2, 17, 9)] {
            let changed = try Self.picture(padding: 0)
            let data = try #require(changed.plane(plane))
            data[(height - 1) * changed.bytesPerRow(ofPlane: plane) + width - 1] ^= 1
            #expect(try changed.pictureDigest() != reference, "a change in plane \(plane) must count")
        }
    }

    @Test func aFrameWithoutAPictureIsAnError() throws {
        #expect(throws: FFmpegError.self) { try Frame().pictureDigest() }
    }
}
