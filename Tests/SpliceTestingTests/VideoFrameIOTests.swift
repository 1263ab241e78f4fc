import Foundation
import Composition
import Export
import SpliceTesting
import Testing
import SpliceTestSupport

/// Reading pictures back (`VideoFrame(contentsOf:)`) and hashing them (`md5()`, `FrameDigest.md5(of:)`).
@Suite("VideoFrame reading and digests")
struct VideoFrameIOTests {
    /// Every byte value in every channel, alpha included, survives PNG encode → decode exactly.
    @Test func pngRoundTripIsExact() throws {
        let scratch = try ScratchDirectory("golden")
        defer { scratch.remove() }
        let width = 64, height = 32
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var state: UInt32 = 0x5EED_1234
        for i in pixels.indices {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            pixels[i] = UInt8(truncatingIfNeeded: state)
        }
        let frame = try #require(VideoFrame(width: width, height: height, bytesPerRow: width * 4, pixels: pixels))
        let url = scratch.file("noise.png")
        try frame.write(to: url)
        let read = try VideoFrame(contentsOf: url)
        #expect(read == frame)
        #expect(try read.md5() == frame.md5())
    }

    /// `Fixtures/media/stills/alpha.png`: transparent left half, opaque red right half (Fixtures/README.md).
    @Test func readsTheAlphaFixture() throws {
        let frame = try VideoFrame(contentsOf: Fixture.url("stills/alpha.png"))
        #expect(frame.width == 200 && frame.height == 100)
        var left = 0, right = 0
        for y in 0..<100 {
            for x in 0..<200 {
                let p = try #require(frame.pixel(x: x, y: y))
                if x < 100, p == (0, 0, 0, 0) { left += 1 }
                if x >= 100, p == (255, 0, 0, 255) { right += 1 }
            }
        }
        #expect(left == 10_000 && right == 10_000)
    }

    @Test func missingOrBadFilesAreTypedErrors() throws {
        let missing = Fixture.url("stills/no-such.png")
        #expect(throws: ExportError.self) { try VideoFrame(contentsOf: missing) }
        #expect(throws: ExportError.self) { try VideoFrame(contentsOf: Fixture.url("broken/garbage.mp4")) }
    }

    /// RFC 1321's test vectors, through libavutil.
    @Test func md5MatchesTheRFCVectors() throws {
        #expect(try FrameDigest.md5(of: []) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(try FrameDigest.md5(of: Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(try FrameDigest.md5(of: Array("message digest".utf8)) == "f96b697d7cb7938d525a2f31aaf161d0")
    }

    /// A frame's digest covers its pixels only (not row padding), and one changed byte changes it.
    @Test func frameDigestIgnoresPaddingAndSeesEveryByte() throws {
        let packed = [UInt8](repeating: 7, count: 2 * 2 * 4)
        var padded = [UInt8](repeating: 0, count: 2 * 12)
        for row in 0..<2 { for i in 0..<8 { padded[row * 12 + i] = 7 } }
        let a = try #require(VideoFrame(width: 2, height: 2, bytesPerRow: 8, pixels: packed))
        let b = try #require(VideoFrame(width: 2, height: 2, bytesPerRow: 12, pixels: padded))
        #expect(try a.md5() == b.md5())
        #expect(try a.md5() == FrameDigest.md5(of: packed))
        var changed = packed
        changed[13] = 8
        #expect(try VideoFrame(width: 2, height: 2, bytesPerRow: 8, pixels: changed)!.md5() != a.md5())
    }
}
