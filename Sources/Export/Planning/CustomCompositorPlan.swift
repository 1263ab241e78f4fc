import Composition
import Foundation
import VideoComposition

/// A ``VideoCompositing`` compositor as a render plan carries it: the compositor, the model instructions it is
/// handed, and the shift from render time (0 at the export range's start) to composition time. Plain data, shared
/// by export and the image generator.
struct CustomCompositorPlan: Sendable {
    var compositor: any VideoCompositing
    /// The video composition's instructions, as the model holds them (composition time).
    var instructions: [VideoCompositionInstruction]
    /// Composition time of render time zero.
    var timeOffset: MediaTime
    /// The canvas, pixels.
    var renderSize: Size

    /// The plan for `compositor` over a video plan made from `videoComposition`, whose render time 0 is composition
    /// time `timeOffset`.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` for an `.rgba8` compositor on an HDR canvas (8 bits cannot
    ///   carry it: the compositor must take `.rgba64`).
    init(compositor: any VideoCompositing, videoComposition: MutableVideoComposition, timeOffset: MediaTime,
         color: CanvasColor) throws {
        guard !color.isHDR || compositor.sourcePixelFormat == .rgba64 else {
            throw ExportError.unsupportedSettings(
                "the canvas is \(color.summary): a custom video compositor on an HDR canvas takes and returns .rgba64 "
                    + "pictures (set its sourcePixelFormat to .rgba64), or set the video composition's colour fields to BT.709")
        }
        self.compositor = compositor
        instructions = videoComposition.instructions
        self.timeOffset = timeOffset
        renderSize = videoComposition.renderSize
    }

    /// The model instruction in force at composition time `time`; an empty one (no layers) covering the time when
    /// none does (never after validation, which makes the instructions tile the composition).
    func instruction(at time: MediaTime) -> VideoCompositionInstruction {
        instructions.first { $0.timeRange.contains(time) }
            ?? VideoCompositionInstruction(timeRange: TimeRange(start: time, duration: MediaTime(value: 1, timescale: 1_000_000)))
    }

    /// Runs the compositor for `request` on the calling thread and checks its picture.
    /// - Throws: ``ExportError/customCompositorFailed(time:message:)`` naming the request's composition time, when
    ///   the compositor throws (its error's description) or returns a picture that is not in its
    ///   ``VideoCompositing/sourcePixelFormat`` at the render size.
    func render(_ request: VideoCompositionRequest) throws -> VideoFrame {
        let frame: VideoFrame
        do {
            frame = try compositor.renderFrame(for: request)
        } catch {
            throw ExportError.customCompositorFailed(time: request.compositionTime, message: "\(error)")
        }
        let wanted = compositor.sourcePixelFormat
        guard frame.width == renderSize.width, frame.height == renderSize.height, frame.pixelFormat == wanted else {
            throw ExportError.customCompositorFailed(
                time: request.compositionTime,
                message: "it returned a \(frame.width) × \(frame.height) .\(frame.pixelFormat.rawValue) picture; the render "
                    + "size is \(renderSize.width) × \(renderSize.height) pixels, .\(wanted.rawValue)")
        }
        return frame
    }
}
