import Composition
import VideoComposition

/// A compositor of your own, called once per output frame instead of Splice's built-in layer compositing: Splice's
/// `AVVideoCompositing` (set as a value on ``AssetExportSession/customVideoCompositor`` or
/// ``AssetImageGenerator/customVideoCompositor``, where AVFoundation takes a class in
/// `AVVideoComposition.customVideoCompositorClass`).
///
/// For every output frame the engine decodes the picture each layer of the instruction in force shows at that time
/// (sample-and-hold, as the built-in path), converts it to the ``sourcePixelFormat`` and hands them to
/// ``renderFrame(for:)`` with the composition time and the model instruction (``VideoCompositionRequest``). The
/// returned picture is the canvas: it is converted into the output's format (BT.709, limited range), scaled to the
/// output size when a sized preset asks for it, and the video composition's overlay layers are drawn over it, as
/// AVFoundation's Core Animation tool draws over a custom compositor's output. The layer transforms, crops, opacities
/// and transitions of the instruction are *not* applied: they are yours to read from the request and draw.
///
/// Export and ``AssetImageGenerator`` call the compositor the same way, so a generated picture is the frame the
/// export writes (exactly, against a lossless codec).
///
/// - Important: An error thrown by ``renderFrame(for:)`` fails the export (or the image request) with
///   ``ExportError/customCompositorFailed(time:message:)``, naming the composition time and carrying the error's
///   description; no output file is left behind.
public protocol VideoCompositing: Sendable {
    /// The format the source frames are handed over and the output frame taken back in (AVFoundation's
    /// `sourcePixelBufferAttributes`), `.rgba8` by default:
    /// - `.rgba8`: 4 bytes a pixel, non-linear BT.709 R'G'B' in full range, straight alpha. SDR canvases only: on an
    ///   HDR canvas the export (or image request) is refused with ``ExportError/unsupportedSettings(_:)``.
    /// - `.rgba64`: 8 bytes a pixel, R, G, B, A each a little-endian `UInt16` 0…65535: the canvas's non-linear
    ///   R'G'B' in full range in the canvas's colour space — on an HDR canvas BT.2020 primaries with the HLG or PQ
    ///   transfer (``VideoFrame/dynamicRange`` says which; not tone-mapped), else BT.709. Converted by `zscale` from
    ///   the canvas's 10-bit (or 8-bit) limited-range Y'CbCr (10-bit Y 64…940 spans 0…65535), and back the same
    ///   way, so a picture returned unchanged comes back within one 10-bit step.
    var sourcePixelFormat: VideoFrame.PixelFormat { get }

    /// True when ``renderFrame(for:)`` may run on several threads at once for different frames (AVFoundation's
    /// compositors receive requests asynchronously and may finish them concurrently). Then the engine keeps up to
    /// ``VideoCompositionRequest/maximumConcurrentRequests`` requests in flight, each on a thread of its own, and
    /// still writes the frames in output order. False by default: one request at a time, in order.
    var supportsConcurrentRendering: Bool { get }

    /// The output frame for one request (AVFoundation's `startRequest(_:)` and `finish(withComposedVideoFrame:)`).
    ///
    /// Called on an engine thread, never on Swift's cooperative pool: blocking is allowed, and the export waits.
    ///
    /// - Parameter request: the composition time, the instruction in force and the source frames of its layers.
    /// - Returns: a picture of exactly ``VideoCompositionRequest/renderSize`` pixels in ``sourcePixelFormat``, in the
    ///   colour space its source frames are in; its alpha is ignored (the canvas is opaque, as an AVFoundation
    ///   composition's output).
    /// - Throws: anything; the export fails with ``ExportError/customCompositorFailed(time:message:)``.
    func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame
}

extension VideoCompositing {
    /// `.rgba8`.
    public var sourcePixelFormat: VideoFrame.PixelFormat { .rgba8 }

    /// False: requests are rendered one at a time.
    public var supportsConcurrentRendering: Bool { false }
}
