import Foundation
import Splice

/// W1v's custom compositor: W1's picture work done in Swift through the `VideoCompositing` hook instead of the
/// built-in graph — the top-most layer's picture at its layer instruction's opacity over the black background (W1's
/// fade), at render size. Renders several frames at once (`supportsConcurrentRendering`). The watermark is still an
/// overlay drawn by the engine over the compositor's picture.
struct FadeCompositor: VideoCompositing {
    var supportsConcurrentRendering: Bool { true }

    struct SizeMismatch: Error, CustomStringConvertible {
        var description: String
    }

    func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
        let size = request.renderSize
        guard let id = request.sourceTrackIDs.first, let source = request.sourceFrame(byTrackID: id) else {
            // Nothing on screen: the background.
            var black = [UInt8](repeating: 0, count: size.width * size.height * 4)
            for i in stride(from: 3, to: black.count, by: 4) { black[i] = 255 }
            return VideoFrame(width: size.width, height: size.height, bytesPerRow: size.width * 4, pixels: black)!
        }
        guard source.width == size.width, source.height == size.height else {
            throw SizeMismatch(description: "W1's clips are at render size; got \(source.width) × \(source.height)")
        }
        let opacity = request.instruction.layerInstruction(forTrackID: id)?.opacity(at: request.compositionTime) ?? 1
        if opacity >= 1 { return source }
        let scale = UInt32((max(0, opacity) * 256).rounded())
        var pixels = source.pixels
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in stride(from: 0, to: buffer.count, by: 4) {
                buffer[i] = UInt8((UInt32(buffer[i]) * scale) >> 8)
                buffer[i + 1] = UInt8((UInt32(buffer[i + 1]) * scale) >> 8)
                buffer[i + 2] = UInt8((UInt32(buffer[i + 2]) * scale) >> 8)
            }
        }
        return VideoFrame(width: source.width, height: source.height, bytesPerRow: source.bytesPerRow, pixels: pixels)!
    }
}
