import Composition

/// Appends pictures to a video ``AssetWriterInput`` with their presentation times, as AVFoundation's
/// `AVAssetWriterInputPixelBufferAdaptor`: the adaptor fixes the pixel format (its `sourcePixelBufferAttributes`),
/// the input's settings the size, and ``makePixelBuffer()`` gives a zeroed picture of both to draw into.
public final class AssetWriterInputPixelBufferAdaptor: Sendable {
    /// The input the pictures go to.
    public let assetWriterInput: AssetWriterInput
    /// The pixel format every appended picture has.
    public let pixelFormat: PixelBuffer.PixelFormat

    /// An adaptor for `input` (a video input with settings) taking pictures in `pixelFormat`.
    public init(assetWriterInput input: AssetWriterInput, pixelFormat: PixelBuffer.PixelFormat = .bgra8) {
        assetWriterInput = input
        self.pixelFormat = pixelFormat
    }

    /// The picture size the input encodes, in pixels (nil for an input without video settings).
    public var size: Size? {
        if case .video(let settings)? = assetWriterInput.outputSettings { return settings.size }
        return nil
    }

    /// A picture of the input's size in the adaptor's format, every byte 0 (black, transparent for RGBA).
    public func makePixelBuffer() -> PixelBuffer {
        PixelBuffer(width: size?.width ?? 0, height: size?.height ?? 0, pixelFormat: pixelFormat)
    }

    /// Appends `picture` shown from `time`, suspending while the encoder is behind.
    /// - Throws: ``AssetWriterError/pictureMismatch(input:expected:appended:)`` naming both when the picture's size
    ///   or pixel format is not the input's and the adaptor's; otherwise as ``AssetWriterInput/append(_:)``.
    public func append(_ picture: PixelBuffer, withPresentationTime time: MediaTime) async throws {
        guard let size else {
            throw AssetWriterError.sampleMismatch(input: assetWriterInput.name, reason: "a pixel buffer adaptor needs a video input with settings")
        }
        guard picture.width == size.width, picture.height == size.height, picture.pixelFormat == pixelFormat else {
            throw AssetWriterError.pictureMismatch(input: assetWriterInput.name,
                                                   expected: "\(size.width)×\(size.height) \(pixelFormat.rawValue)",
                                                   appended: picture.summary)
        }
        let format = FormatDescription(mediaType: .video, codecName: "rawvideo", timeScale: time.timescale, dimensions: size)
        try await assetWriterInput.append(SampleBuffer(presentationTime: time, duration: .zero, formatDescription: format,
                                                       imageBuffer: picture))
    }
}
