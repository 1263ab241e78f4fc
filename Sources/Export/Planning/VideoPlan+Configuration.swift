import Composition
import Foundation

extension VideoPlan {
    /// The graph configuration for composition time `time`: the instruction's layers that show a picture then
    /// (bottom-most first) with their transform, crop and opacity evaluated by the model, the overlays active then,
    /// and the canvas. Shared by the renderer (formats of decoded frames) and the graph preview (formats described
    /// by the assets), so both compile the same graphs.
    ///
    /// - Parameters:
    ///   - picture: the format of the picture track `trackID` shows at `time`, or nil when it shows none.
    ///   - image: the format of an overlay image.
    /// - Returns: the configuration and, per configured layer, its opacity at `time`.
    func configuration(
        at time: MediaTime, instructionIndex: Int?,
        picture: (Int32) throws -> PictureFormat?, image: (URL) throws -> PictureFormat
    ) throws -> (GraphConfiguration, [Double]) {
        let instruction = instructionIndex.map { instructions[$0] }
        var layers: [LayerConfiguration] = []
        var opacities: [Double] = []
        for layer in (instruction?.layers ?? []).reversed() {
            let opacity = layer.opacity(time)
            let opacityIsConstant = layer.isOpacityConstant(at: time)
            if opacity <= 0 && opacityIsConstant { continue }
            guard let format = try picture(layer.trackID) else { continue }
            opacities.append(opacity)
            layers.append(LayerConfiguration(
                input: format, transform: layer.transform(time), crop: layer.crop(time),
                opacity: opacityIsConstant ? opacity : nil))
        }
        var images: [ImageOverlayConfiguration] = []
        var texts: [TextOverlayConfiguration] = []
        if instruction?.drawsOverlays ?? true {
            for overlay in imageOverlays where overlay.timeRange.contains(time) {
                images.append(ImageOverlayConfiguration(
                    input: try image(overlay.url), frame: overlay.frame(time), opacity: overlay.opacity(time)))
            }
            for text in textOverlays where text.timeRange.contains(time) {
                texts.append(TextOverlayConfiguration(
                    text: text.text, fontFile: text.fontFile, fontSize: text.fontSize, color: text.color,
                    background: text.background, padding: text.padding, frame: text.frame(time),
                    opacity: text.opacity(time)))
            }
        }
        let rate = AVRationalKey(num: frameDuration.timescale, den: Int32(clamping: frameDuration.value))
        let configuration = GraphConfiguration(
            instructionIndex: instructionIndex ?? -1, background: instruction?.background ?? .black,
            canvas: renderSize, output: outputSize, frameRate: rate, layers: layers,
            imageOverlays: images, textOverlays: texts)
        return (configuration, opacities)
    }

    /// The instruction containing `time`, if any.
    func instructionIndex(at time: MediaTime) -> Int? {
        instructions.firstIndex { $0.timeRange.contains(time) }
    }
}
