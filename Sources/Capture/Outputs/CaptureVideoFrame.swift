import Composition

/// One picture from a ``CaptureVideoDataOutput`` (AVFoundation's video `CMSampleBuffer` with its `CVPixelBuffer`):
/// `height` rows of `bytesPerRow` bytes in ``pixelFormat``, already oriented and mirrored as the connection says,
/// stamped on the session clock.
public struct CaptureVideoFrame: Sendable, Hashable {
    /// Width in pixels (after orientation: a portrait frame of a 640 × 480 camera is 480 wide).
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next (`width` × ``CaptureVideoSettings/PixelFormat/bytesPerPixel``: no padding).
    public let bytesPerRow: Int
    /// The pixels, `height × bytesPerRow` bytes, top row first.
    public let pixels: [UInt8]
    /// How a pixel is stored.
    public let pixelFormat: CaptureVideoSettings.PixelFormat
    /// When the picture was taken, on the session clock (seconds since the session started, from the device's own
    /// timestamp; microsecond timescale). AVFoundation's `CMSampleBufferGetPresentationTimeStamp`.
    public let presentationTime: MediaTime
    /// Frames the output dropped before this one since the stream began, this frame's arrival included when it
    /// replaced an undelivered one (AVFoundation's `captureOutput(_:didDrop:from:)`, counted). Always 0 when
    /// ``CaptureVideoDataOutput/alwaysDiscardsLateVideoFrames`` is false.
    public internal(set) var droppedFrameCountBefore: Int

    init(width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8], pixelFormat: CaptureVideoSettings.PixelFormat,
         presentationTime: MediaTime) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
        self.pixelFormat = pixelFormat
        self.presentationTime = presentationTime
        droppedFrameCountBefore = 0
    }

    /// The pixel at (`x`, `y`) (origin top-left) as (red, green, blue), 0…255; nil outside the picture or for
    /// ``CaptureVideoSettings/PixelFormat/gray8`` (use ``luma(x:y:)``).
    public func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = y * bytesPerRow + x * pixelFormat.bytesPerPixel
        switch pixelFormat {
        case .rgba8: return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
        case .bgra8: return (pixels[offset + 2], pixels[offset + 1], pixels[offset])
        case .gray8: return nil
        }
    }

    /// The gray value at (`x`, `y`) of a ``CaptureVideoSettings/PixelFormat/gray8`` frame (full range 0…255); nil
    /// outside the picture or for other formats.
    public func luma(x: Int, y: Int) -> UInt8? {
        guard pixelFormat == .gray8, x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[y * bytesPerRow + x]
    }
}
