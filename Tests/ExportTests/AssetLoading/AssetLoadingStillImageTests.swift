import Foundation
import Testing
import Composition
@testable import Export
internal import CMedia
import SpliceTestSupport

/// Still images made in-process with FFmpeg's own encoders (no binary fixtures).
enum LoaderSynthetic {
    struct EncodingFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// A `width × height` picture encoded with `encoderName` (`png` → RGB24, `mjpeg` → full-range YUV 4:2:0): a
    /// horizontal ramp in the first component, so orientation mistakes would be visible.
    static func image(encoder encoderName: String, width: Int32, height: Int32) throws -> Data {
        guard let codec = avcodec_find_encoder_by_name(encoderName) else { throw EncodingFailed(description: "no \(encoderName) encoder") }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let context else { throw EncodingFailed(description: "no context") }
        let format = encoderName == "png" ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_YUVJ420P
        context.pointee.width = width
        context.pointee.height = height
        context.pointee.pix_fmt = format
        context.pointee.time_base = AVRational(num: 1, den: 25)
        guard avcodec_open2(context, codec, nil) >= 0 else { throw EncodingFailed(description: "open \(encoderName)") }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        guard let frame else { throw EncodingFailed(description: "frame") }
        frame.pointee.width = width
        frame.pointee.height = height
        frame.pointee.format = format.rawValue
        guard av_frame_get_buffer(frame, 0) >= 0 else { throw EncodingFailed(description: "buffer") }
        let planes = encoderName == "png" ? 1 : 3
        for plane in 0..<planes {
            let rows = plane == 0 ? Int(height) : Int(height + 1) / 2
            let bytesPerRow = Int(withUnsafeBytes(of: frame.pointee.linesize) { $0.load(fromByteOffset: plane * 4, as: Int32.self) })
            guard let base = withUnsafeBytes(of: frame.pointee.data, { $0.load(fromByteOffset: plane * 8, as: UnsafeMutablePointer<UInt8>?.self) }) else { continue }
            for row in 0..<rows {
                for column in 0..<bytesPerRow {
                    base[row * bytesPerRow + column] = plane == 0 ? UInt8(truncatingIfNeeded: column * 4) : 128
                }
            }
        }
        frame.pointee.pts = 0
        guard avcodec_send_frame(context, frame) >= 0, avcodec_send_frame(context, nil) >= 0 else {
            throw EncodingFailed(description: "send")
        }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet, avcodec_receive_packet(context, packet) >= 0 else { throw EncodingFailed(description: "receive") }
        return Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
    }

    /// `jpeg` with an EXIF APP1 segment holding only the Orientation tag (0x0112) inserted after SOI.
    static func withExifOrientation(_ jpeg: Data, orientation: UInt16) -> Data {
        // TIFF, big-endian: header, one IFD entry (tag 0x0112, type SHORT, count 1, value), no next IFD.
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
                             0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]
        tiff += [UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0x00, 0x00]
        tiff += [0x00, 0x00, 0x00, 0x00]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        var result = Data(jpeg.prefix(2))  // SOI
        result.append(contentsOf: segment)
        result.append(jpeg.dropFirst(2))
        return result
    }
}

@Suite("Asset loading: still images")
struct AssetLoadingStillImageTests {
    @Test func pngLoadsAsOneUnboundedStillTrack() async throws {
        let folder = try ScratchDirectory("loader")
        defer { folder.remove() }
        let url = try folder.write("ramp.png", LoaderSynthetic.image(encoder: "png", width: 64, height: 48))
        let asset = try await Asset.load(from: url)
        #expect(asset.formatName == "png_pipe")
        #expect(asset.duration == .positiveInfinity)
        #expect(asset.tracks.count == 1)
        let track = try #require(asset.tracks.first)
        #expect(track.trackID == 1 && track.streamIndex == 0)
        #expect(track.mediaType == .video)
        #expect(track.codecName == "png")
        #expect(track.isDecodable)
        #expect(track.timeRange == TimeRange(start: .zero, duration: .positiveInfinity))
        #expect(track.startTimeOffset == .zero)
        let video = try #require(track.video)
        #expect(video.isStillImage)
        #expect(video.naturalSize == Size(width: 64, height: 48))
        #expect(video.displaySize == Size(width: 64, height: 48))
        #expect(video.preferredTransform == .identity)
        #expect(video.frameCount == 1)
        #expect(video.pixelFormat == "rgb24")
        #expect(video.minFrameDuration == .positiveInfinity)
        #expect(video.nominalFrameRate == 0)
        #expect(!video.hasVariableFrameRate)
    }

    @Test func percentAndGlobCharactersInTheNameAreNotAPattern() async throws {
        // image2 would read "%d" as an image-sequence pattern; the loader opens the named file itself.
        let folder = try ScratchDirectory("loader")
        defer { folder.remove() }
        let url = try folder.write("frame%d [*].png", LoaderSynthetic.image(encoder: "png", width: 16, height: 8))
        let asset = try await Asset.load(from: url)
        #expect(asset.tracks.first?.video?.naturalSize == Size(width: 16, height: 8))
        #expect(asset.url == url)
    }

    /// For each EXIF orientation: the loader's transform (FFmpeg's frame display matrix) equals the EXIF
    /// definition, and the display size is the stored size, swapped for orientations 5…8.
    @Test(arguments: 1...8)
    func jpegExifOrientationBecomesThePreferredTransform(orientation: Int) async throws {
        let folder = try ScratchDirectory("loader")
        defer { folder.remove() }
        let jpeg = try LoaderSynthetic.image(encoder: "mjpeg", width: 40, height: 24)
        let url = try folder.write("o\(orientation).jpg", LoaderSynthetic.withExifOrientation(jpeg, orientation: UInt16(orientation)))
        let asset = try await Asset.load(from: url)
        let video = try #require(asset.tracks.first?.video)
        #expect(video.isStillImage)
        #expect(video.naturalSize == Size(width: 40, height: 24))
        let expected = try #require(DisplayOrientation.preferredTransform(exifOrientation: orientation, size: Size(width: 40, height: 24)))
        #expect(video.preferredTransform == expected)
        #expect(video.displaySize == (orientation >= 5 ? Size(width: 24, height: 40) : Size(width: 40, height: 24)))
    }
}
