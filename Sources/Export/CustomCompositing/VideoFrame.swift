import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// A rendered picture as RGBA: `height` rows of `bytesPerRow` bytes, each pixel R, G, B, A — 4 bytes
/// (``PixelFormat-swift.enum/rgba8``, the default) or four little-endian 16-bit values (``PixelFormat-swift.enum/rgba64``,
/// from ``AssetImageGenerator/DynamicRangePolicy-swift.enum/matchSource``). Values are non-linear R'G'B' in full range
/// (0 = black, the maximum = peak) of the colour space ``dynamicRange`` names; alpha is straight, not premultiplied.
public struct VideoFrame: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next (≥ 4 × width).
    public let bytesPerRow: Int
    /// The pixels, `height × bytesPerRow` bytes.
    public let pixels: [UInt8]
    /// How a pixel is stored: 4 bytes (`rgba8`) or 8 bytes (`rgba64`, each component a little-endian `UInt16`).
    public let pixelFormat: PixelFormat
    /// The colour space of the values: `.sdr` is BT.709 (primaries and transfer, as decoded), `.hlg` and `.pq` are
    /// BT.2100 (BT.2020 primaries with that transfer, R'G'B' code values not tone-mapped). Always `.sdr` for `rgba8`.
    public let dynamicRange: DynamicRange

    /// A frame from raw RGBA8 bytes.
    /// - Precondition-free: returns nil when `pixels` is shorter than `height × bytesPerRow` or the shape is invalid.
    public init?(width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, bytesPerRow >= width * 4, pixels.count >= height * bytesPerRow else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
        pixelFormat = .rgba8
        dynamicRange = .sdr
    }

    /// One pixel as (red, green, blue, alpha), 0…255 each, or nil outside the picture. For an `rgba64` frame each
    /// component is rounded to 8 bits (v × 255 / 65535); ``pixel16(x:y:)`` gives the full values.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        if pixelFormat == .rgba64 {
            guard let wide = pixel16(x: x, y: y) else { return nil }
            func narrow(_ value: UInt16) -> UInt8 { UInt8((Int(value) * 255 + 32767) / 65535) }
            return (narrow(wide.red), narrow(wide.green), narrow(wide.blue), narrow(wide.alpha))
        }
        let offset = y * bytesPerRow + x * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// The mean of each channel over a rectangle of pixels (clipped to the picture), as (R, G, B, A) in 0…255
    /// (an `rgba64` frame's values scaled by 255 / 65535; ``meanColor16(in:)`` gives them in 0…65535).
    public func meanColor(in rect: Rect) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        if pixelFormat == .rgba64 {
            let wide = meanColor16(in: rect)
            return (wide.red / 257, wide.green / 257, wide.blue / 257, wide.alpha / 257)
        }
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

    /// Copies an RGBA `AVFrame` of SDR values (``init(rgbaFrame:dynamicRange:)`` with `.sdr`).
    /// - Throws: as ``init(rgbaFrame:dynamicRange:)``.
    package init(rgbaFrame frame: Frame) throws {
        try self.init(rgbaFrame: frame, dynamicRange: .sdr)
    }

    /// Copies an RGBA `AVFrame` (packed, one plane: `height` rows of `linesize[0]` bytes, 4 bytes a pixel for
    /// `rgba`, 8 for `rgba64le`), whose values are in the colour space `dynamicRange` names.
    /// - Throws: ``ExportError/renderingFailed(stage:reason:)`` when the frame is not a non-empty packed RGBA
    ///   picture with its pixel plane (a filter graph that ended in `format=rgba` or `format=rgba64le` always gives
    ///   one).
    package init(rgbaFrame frame: Frame, dynamicRange: DynamicRange) throws {
        let width = frame.width, height = frame.height
        let stride = frame.bytesPerRow(ofPlane: 0)
        let format: PixelFormat? = frame.format == AV_PIX_FMT_RGBA.rawValue ? .rgba8
            : frame.format == AV_PIX_FMT_RGBA64LE.rawValue ? .rgba64 : nil
        let bytesPerPixel = format?.bytesPerPixel ?? 4
        guard let format, width > 0, height > 0, stride >= width * bytesPerPixel, let source = frame.plane(0)
        else {
            throw ExportError.renderingFailed(
                stage: "copying an RGBA picture",
                reason: "the frame is not a packed RGBA picture with pixels (format \(frame.format), "
                    + "\(width)x\(height), \(stride) bytes per row)")
        }
        let rowBytes = width * bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: height * rowBytes)
        pixels.withUnsafeMutableBytes { destination in
            guard let base = destination.baseAddress else { return }  // never: width × height > 0
            for row in 0..<height {
                (base + row * rowBytes).copyMemory(from: source + row * stride, byteCount: rowBytes)
            }
        }
        self.width = width
        self.height = height
        bytesPerRow = rowBytes
        self.pixels = pixels
        pixelFormat = format
        self.dynamicRange = format == .rgba8 ? .sdr : dynamicRange
    }
}

/// PNG encoding through libavcodec (`png` encoder): 8 bits per channel for `rgba8`, 16 (`rgba64be`) for `rgba64`.
enum PNGEncoding {
    static func encode(_ frame: VideoFrame) throws -> Data {
        let wide = frame.pixelFormat == .rgba64
        let format = wide ? AV_PIX_FMT_RGBA64BE : AV_PIX_FMT_RGBA
        let rowBytes = frame.width * frame.pixelFormat.bytesPerPixel
        let encoder: Encoder
        do {
            encoder = try Encoder(configuration: EncoderConfiguration(
                encoderName: "png",
                media: .video(.init(width: frame.width, height: frame.height, pixelFormat: format,
                                    timeBase: AVRational(num: 1, den: 1), frameRate: AVRational(num: 1, den: 1)))))
        } catch {
            throw ExportError.encoderUnavailable("png")
        }
        let picture = try Frame()
        try picture.allocatePicture(width: frame.width, height: frame.height, pixelFormat: format)
        let lineSize = picture.bytesPerRow(ofPlane: 0)
        guard let destination = picture.plane(0) else {
            throw ExportError.renderingFailed(stage: "encoding a PNG", reason: "av_frame_get_buffer gave no pixel plane")
        }
        frame.pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }  // never: a VideoFrame has at least one pixel
            let bytes = base.assumingMemoryBound(to: UInt8.self)
            for row in 0..<frame.height {
                let from = bytes + row * frame.bytesPerRow, to = destination + row * lineSize
                if wide {  // little-endian 16-bit values to PNG's big-endian ones
                    for i in stride(from: 0, to: rowBytes, by: 2) {
                        to[i] = from[i + 1]
                        to[i + 1] = from[i]
                    }
                } else {
                    to.update(from: from, count: rowBytes)
                }
            }
        }
        return Data(try encoder.encodeSinglePicture(picture))
    }
}
