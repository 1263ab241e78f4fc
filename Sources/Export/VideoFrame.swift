import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// A rendered picture as 8-bit RGBA: `height` rows of `bytesPerRow` bytes, each pixel 4 bytes R, G, B, A
/// (sRGB values as decoded; straight, not premultiplied, alpha).
public struct VideoFrame: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next (≥ 4 × width).
    public let bytesPerRow: Int
    /// The pixels, `height × bytesPerRow` bytes.
    public let pixels: [UInt8]

    /// A frame from raw RGBA8 bytes.
    /// - Precondition-free: returns nil when `pixels` is shorter than `height × bytesPerRow` or the shape is invalid.
    public init?(width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, bytesPerRow >= width * 4, pixels.count >= height * bytesPerRow else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
    }

    /// One pixel as (red, green, blue, alpha), 0…255 each, or nil outside the picture.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = y * bytesPerRow + x * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// The mean of each channel over a rectangle of pixels (clipped to the picture), as (R, G, B, A) in 0…255.
    public func meanColor(in rect: Rect) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        let x0 = max(0, Int(rect.minX)), y0 = max(0, Int(rect.minY))
        let x1 = min(width, Int(rect.maxX.rounded(.up))), y1 = min(height, Int(rect.maxY.rounded(.up)))
        var sums = (0.0, 0.0, 0.0, 0.0)
        var count = 0.0
        for y in y0..<max(y0, y1) {
            for x in x0..<max(x0, x1) {
                let o = y * bytesPerRow + x * 4
                sums.0 += Double(pixels[o]); sums.1 += Double(pixels[o + 1])
                sums.2 += Double(pixels[o + 2]); sums.3 += Double(pixels[o + 3])
                count += 1
            }
        }
        guard count > 0 else { return (0, 0, 0, 0) }
        return (sums.0 / count, sums.1 / count, sums.2 / count, sums.3 / count)
    }

    /// The picture as a PNG file's bytes, encoded by libavcodec's PNG encoder (RGBA, 8 bits per channel).
    /// - Throws: ``ExportError/encoderUnavailable(_:)`` when the linked FFmpeg has no PNG encoder, or
    ///   ``ExportError/renderingFailed(stage:reason:)``.
    public func pngData() throws -> Data {
        do {
            return try PNGEncoding.encode(self)
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError.renderingFailed(stage: "encoding a PNG", reason: "\(error)")
        }
    }

    /// Writes ``pngData()`` to `url` atomically.
    /// - Throws: the errors of ``pngData()``, or ``ExportError/writeFailed(_:reason:)``.
    public func write(to url: URL) throws {
        let data = try pngData()
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw ExportError.writeFailed(url, reason: error.localizedDescription)
        }
    }

    /// Copies an RGBA `AVFrame` (packed, one plane: `height` rows of `linesize[0]` bytes, 4 bytes a pixel).
    /// - Throws: ``ExportError/renderingFailed(stage:reason:)`` when the frame is not a non-empty packed RGBA
    ///   picture with its pixel plane (a filter graph that ended in `format=rgba` always gives one).
    package init(rgbaFrame frame: Frame) throws {
        let width = frame.width, height = frame.height
        let stride = frame.bytesPerRow(ofPlane: 0)
        guard frame.format == AV_PIX_FMT_RGBA.rawValue, width > 0, height > 0, stride >= width * 4,
              let source = frame.plane(0)
        else {
            throw ExportError.renderingFailed(
                stage: "copying an RGBA picture",
                reason: "the frame is not a packed RGBA picture with pixels (format \(frame.format), "
                    + "\(width)x\(height), \(stride) bytes per row)")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBytes { destination in
            guard let base = destination.baseAddress else { return }  // never: width × height > 0
            for row in 0..<height {
                (base + row * width * 4).copyMemory(from: source + row * stride, byteCount: width * 4)
            }
        }
        self.width = width
        self.height = height
        bytesPerRow = width * 4
        self.pixels = pixels
    }
}

/// PNG encoding through libavcodec (`png` encoder).
enum PNGEncoding {
    static func encode(_ frame: VideoFrame) throws -> Data {
        let encoder: Encoder
        do {
            encoder = try Encoder(configuration: EncoderConfiguration(
                encoderName: "png",
                media: .video(.init(width: frame.width, height: frame.height, pixelFormat: AV_PIX_FMT_RGBA,
                                    timeBase: AVRational(num: 1, den: 1), frameRate: AVRational(num: 1, den: 1)))))
        } catch {
            throw ExportError.encoderUnavailable("png")
        }
        try encoder.open(options: [:])
        let picture = try Frame()
        try picture.allocatePicture(width: frame.width, height: frame.height, pixelFormat: AV_PIX_FMT_RGBA)
        let stride = picture.bytesPerRow(ofPlane: 0)
        guard let destination = picture.plane(0) else {
            throw ExportError.renderingFailed(stage: "encoding a PNG", reason: "av_frame_get_buffer gave no pixel plane")
        }
        frame.pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }  // never: a VideoFrame has at least one pixel
            for row in 0..<frame.height {
                (destination + row * stride).update(
                    from: base.assumingMemoryBound(to: UInt8.self) + row * frame.bytesPerRow, count: frame.width * 4)
            }
        }
        picture.pts = 0
        _ = try encoder.send(picture)
        _ = try encoder.send(nil)
        let packet = try Packet()
        var data = Data()
        while try encoder.receive(into: packet) == .packet {
            data.append(contentsOf: packet.data)
            packet.unref()
        }
        return data
    }
}
