import SpliceFFmpeg
import Composition
import Foundation

/// The custom compositor's path through the ``VideoCompositor`` (``VideoPlan/custom``): the render thread gathers
/// each frame's request (decoding and converting the layers' pictures), the user's ``VideoCompositing`` renders it
/// (here, or on threads of its own: ``CustomRenderWindow``), and the render thread pushes the result — as the one
/// opaque layer covering the canvas — with the overlays through the usual graph, so the output conversion, the
/// scaling to the output size and the overlays are the built-in path's own.
extension VideoCompositor {
    /// Renders the picture at render time `time` through the custom compositor on the calling thread.
    func renderCustom(at time: MediaTime, sequence: Int, custom: CustomCompositorPlan,
                      emit: (Frame) throws -> Void) throws {
        let request = try customRequest(at: time, custom: custom)
        let image = try custom.render(request)
        try composite(customImage: image, at: time, sequence: sequence, emit: emit)
    }

    /// The request for render time `time`: the composition time, the model instruction, and the picture each layer of
    /// the instruction in force shows then, as RGBA8 (top-most first; a layer whose track shows nothing is left out).
    /// - Throws: `CancellationError`; the decoding errors of the built-in path.
    func customRequest(at time: MediaTime, custom: CustomCompositorPlan) throws -> VideoCompositionRequest {
        if cancellation.isCancelled { throw CancellationError() }
        guard let pictures = customPictures else {
            throw ExportError.renderingFailed(stage: "starting the custom compositor", reason: "no picture converter")
        }
        var trackIDs: [Int32] = []
        var frames: [Int32: VideoFrame] = [:]
        if let index = instruction(at: time) {
            for layer in plan.instructions[index].layers where frames[layer.trackID] == nil {
                guard let renderer = trackRenderers[layer.trackID], let picture = try renderer.frame(at: time) else { continue }
                var format = PictureFormat(of: picture)
                if let color = renderer.shownColor { format = format.applying(color) }
                picture.resetPictureType()
                picture.markSquarePixels()
                frames[layer.trackID] = try pictures.rgba(picture, format: format)
                trackIDs.append(layer.trackID)
            }
        }
        let compositionTime = time + custom.timeOffset
        return VideoCompositionRequest(
            compositionTime: compositionTime, instruction: custom.instruction(at: compositionTime),
            renderSize: plan.renderSize, sourceTrackIDs: trackIDs, sourceFrames: frames)
    }

    /// Draws the compositor's `image` (render size, `.rgba8`) for render time `time` as the canvas, the overlays
    /// active then over it, and hands the graph's frames to `emit` with `pts` = `sequence`.
    func composite(customImage image: VideoFrame, at time: MediaTime, sequence: Int,
                   emit: (Frame) throws -> Void) throws {
        guard let pictures = customPictures else {
            throw ExportError.renderingFailed(stage: "taking the custom compositor's picture", reason: "no picture converter")
        }
        let canvas = try pictures.frame(from: image)
        var imageFrames: [Frame] = []
        var (wanted, _, _) = try plan.configuration(
            at: time, instructionIndex: instruction(at: time), picture: { _ in nil },
            image: { url in
                let picture = try self.image(at: url)
                imageFrames.append(picture)
                return PictureFormat(of: picture)
            })
        wanted.layers = [LayerConfiguration(input: PictureFormat(of: canvas), transform: .identity, crop: nil, opacity: 1)]
        try composite(wanted, layerFrames: [canvas], imageFrames: imageFrames, layerOpacities: [1], layerEffects: [[]],
                      sequence: sequence, emit: emit)
    }
}
