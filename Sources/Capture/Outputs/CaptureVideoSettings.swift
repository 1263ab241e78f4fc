/// What a ``CaptureVideoDataOutput`` delivers (AVFoundation's `videoSettings` dictionary with
/// `kCVPixelBufferPixelFormatTypeKey`, `kCVPixelBufferWidthKey`, `kCVPixelBufferHeightKey`).
public struct CaptureVideoSettings: Sendable, Hashable, Codable {
    /// How a delivered pixel is stored. Colours are converted from the device's Y'CbCr with the BT.601 matrix for
    /// pictures up to 576 lines and BT.709 above (FFmpeg's swscale defaults for untagged video), full range out.
    public enum PixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
        /// 4 bytes: R, G, B, A (alpha 255). FFmpeg's `rgba`; AVFoundation's `kCVPixelFormatType_32RGBA`.
        case rgba8
        /// 4 bytes: B, G, R, A (alpha 255). FFmpeg's `bgra`; AVFoundation's `kCVPixelFormatType_32BGRA`, the format
        /// most Apple code asks for.
        case bgra8
        /// 1 byte of luma, full range 0…255. FFmpeg's `gray`.
        case gray8

        /// Bytes per pixel: 4, 4 or 1.
        public var bytesPerPixel: Int { self == .gray8 ? 1 : 4 }
    }

    /// The pixel format (default ``PixelFormat/bgra8``, as AVFoundation code usually asks).
    public var pixelFormat: PixelFormat
    /// Width in pixels of the delivered frame before orientation, nil for the device's own width. With only one
    /// of width and height set, the other keeps the device's aspect ratio (rounded to even).
    public var width: Int?
    /// Height in pixels of the delivered frame before orientation, nil for the device's own height.
    public var height: Int?

    /// Settings for `pixelFormat` at the device's size, or scaled to `width` × `height` pixels.
    public init(pixelFormat: PixelFormat = .bgra8, width: Int? = nil, height: Int? = nil) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
    }
}
