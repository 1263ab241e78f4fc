import Composition

extension VideoFrame {
    /// How a ``VideoFrame`` stores a pixel.
    public enum PixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
        /// 4 bytes: R, G, B, A, 0…255 each (FFmpeg's `rgba`).
        case rgba8
        /// 8 bytes: R, G, B, A, each a little-endian `UInt16` 0…65535 (FFmpeg's `rgba64le`).
        case rgba64

        /// Bytes a pixel: 4 or 8.
        public var bytesPerPixel: Int { self == .rgba8 ? 4 : 8 }
    }

    /// A frame from raw pixels of either format.
    ///
    /// - Parameters:
    ///   - bytesPerRow: bytes from one row to the next, at least `width × pixelFormat.bytesPerPixel`.
    ///   - pixels: at least `height × bytesPerRow` bytes; `rgba64` values little-endian.
    ///   - dynamicRange: the colour space of the values (``dynamicRange``); `.sdr` for any `rgba8` frame.
    /// - Returns: nil when the shape is invalid, `pixels` is too short, or an `rgba8` frame is said to be HDR.
    public init?(width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8], pixelFormat: PixelFormat,
                 dynamicRange: DynamicRange = .sdr) {
        guard width > 0, height > 0, bytesPerRow >= width * pixelFormat.bytesPerPixel, pixels.count >= height * bytesPerRow,
              pixelFormat == .rgba64 || dynamicRange == .sdr
        else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
        self.pixelFormat = pixelFormat
        self.dynamicRange = dynamicRange
    }

    /// One pixel as (red, green, blue, alpha), 0…65535 each (an `rgba8` frame's values × 257, so 255 → 65535), or
    /// nil outside the picture.
    public func pixel16(x: Int, y: Int) -> (red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = y * bytesPerRow + x * pixelFormat.bytesPerPixel
        return (component(offset, 0), component(offset, 1), component(offset, 2), component(offset, 3))
    }

    /// The mean of each channel over a rectangle of pixels (clipped to the picture), as (R, G, B, A) in 0…65535
    /// (an `rgba8` frame's values × 257).
    public func meanColor16(in rect: Rect) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        let x0 = max(0, Int(rect.minX)), y0 = max(0, Int(rect.minY))
        let x1 = min(width, Int(rect.maxX.rounded(.up))), y1 = min(height, Int(rect.maxY.rounded(.up)))
        var sums = (0.0, 0.0, 0.0, 0.0)
        var count = 0.0
        for y in y0..<max(y0, y1) {
            for x in x0..<max(x0, x1) {
                let o = y * bytesPerRow + x * pixelFormat.bytesPerPixel
                sums.0 += Double(component(o, 0)); sums.1 += Double(component(o, 1))
                sums.2 += Double(component(o, 2)); sums.3 += Double(component(o, 3))
                count += 1
            }
        }
        guard count > 0 else { return (0, 0, 0, 0) }
        return (sums.0 / count, sums.1 / count, sums.2 / count, sums.3 / count)
    }

    /// Channel `channel` (0 R … 3 A) of the pixel at byte `offset`, as 16 bits.
    private func component(_ offset: Int, _ channel: Int) -> UInt16 {
        switch pixelFormat {
        case .rgba8: return UInt16(pixels[offset + channel]) * 257
        case .rgba64: return UInt16(pixels[offset + 2 * channel]) | UInt16(pixels[offset + 2 * channel + 1]) << 8
        }
    }
}
