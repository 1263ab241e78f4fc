import Composition
import Foundation
import VideoComposition

extension VideoPlan {
    /// The graph configuration for composition time `time`: the instruction's layers that show a picture then
    /// (bottom-most first) with their transform, crop and opacity evaluated by the model, the overlays active then,
    /// and the canvas. Shared by the renderer (formats of decoded frames) and the graph preview (formats described
    /// by the assets), so both compile the same graphs.
    ///
    /// A picture whose size differs from its track's natural size (a stream that changes size midway, e.g. a
    /// Matroska file whose frames go from 320 × 240 to 640 × 360) is first fitted whole into the natural-size box
    /// (aspect kept, centred), because the layer transform and crop are written for the natural size.
    ///
    /// - Parameters:
    ///   - picture: the format of the picture track `trackID` shows at `time` and the natural size (pixels) of the
    ///     source it comes from, or nil when it shows none.
    ///   - image: the format of an overlay image.
    /// - Returns: the configuration and, per configured layer, its opacity and its effects at `time`. An
    ///   instruction's transition is configured (with its progress at `time`) when both its tracks show a picture;
    ///   with one missing, the other is drawn as an ordinary layer. Outside transitions the layers send their
    ///   commandable effect amounts per frame (``LayerConfiguration/sendsEffectAmounts``): the configuration holds
    ///   stand-ins, the returned effects the amounts (a transition's graph is built per frame anyway, with the
    ///   amounts in its text).
    func configuration(
        at time: MediaTime, instructionIndex: Int?,
        picture: (Int32) throws -> (format: PictureFormat, naturalSize: Size)?, image: (URL) throws -> PictureFormat
    ) throws -> (GraphConfiguration, [Double], effects: [[VideoEffectValue]]) {
        let instruction = instructionIndex.map { instructions[$0] }
        var layers: [LayerConfiguration] = []
        var opacities: [Double] = []
        var layerTracks: [Int32] = []
        for layer in (instruction?.layers ?? []).reversed() {
            let opacity = layer.opacity(time)
            let constant = layer.isOpacityConstant(at: time)
            if opacity <= 0 && constant { continue }
            guard let (format, naturalSize) = try picture(layer.trackID) else { continue }
            var transform = layer.transform(time)
            var crop = layer.crop(time)
            if let fit = Self.fitting(format, into: naturalSize) {
                transform = fit.transform.concatenating(transform)
                crop = crop.map { fit.inverse.apply(to: $0) }
            }
            opacities.append(opacity)
            layerTracks.append(layer.trackID)
            layers.append(LayerConfiguration(
                input: format, transform: transform, crop: crop, opacity: constant ? opacity : nil, effects: layer.effects(time)))
        }
        var images: [ImageOverlayConfiguration] = []
        var texts: [TextOverlayConfiguration] = []
        if instruction?.drawsOverlays ?? true {
            for overlay in imageOverlays where overlay.timeRange.contains(time) {
                images.append(overlay.configuration(at: time, input: try image(overlay.url)))
            }
            for text in textOverlays where text.timeRange.contains(time) {
                texts.append(text.configuration(at: time))
            }
        }
        var transition: TransitionConfiguration?
        if let plan = instruction?.transition, let outgoing = layerTracks.firstIndex(of: plan.fromTrackID),
           let incoming = layerTracks.firstIndex(of: plan.toTrackID) {
            transition = TransitionConfiguration(
                filterName: plan.filterName, progress: plan.progress(time), outgoing: outgoing, incoming: incoming)
        }
        let rate = AVRationalKey(num: frameDuration.timescale, den: Int32(clamping: frameDuration.value))
        let effects = layers.map(\.effects)
        if transition == nil, sendsEffectAmounts {
            for index in layers.indices where !layers[index].effects.isEmpty {
                layers[index].sendsEffectAmounts = true
                layers[index].effects = layers[index].effects.map(Self.effectKey)
            }
        }
        let configuration = GraphConfiguration(
            instructionIndex: instructionIndex ?? -1, background: instruction?.background ?? .black,
            canvas: renderSize, output: outputSize, frameRate: rate, layers: layers,
            imageOverlays: images, textOverlays: texts, color: color, outputPixelFormat: outputPixelFormat,
            transition: transition)
        return (configuration, opacities, effects)
    }

    /// `value` as a configuration holds it when its amount is sent per frame: a commandable adjustment at its
    /// parameter's neutral value (a stand-in; ``FilterGraphCompiler/takesAmountAsCommand(_:)``), anything else as is.
    static func effectKey(_ value: VideoEffectValue) -> VideoEffectValue {
        guard case .adjustment(let parameter, _) = value, FilterGraphCompiler.takesAmountAsCommand(parameter) else { return value }
        return .adjustment(parameter, parameter.neutralValue)
    }

    /// The scale-and-centre mapping a `format`-sized picture into a `naturalSize` box with its aspect kept, and its
    /// inverse; nil when the sizes agree (the usual case) or either is empty.
    static func fitting(_ format: PictureFormat, into naturalSize: Size)
        -> (transform: AffineTransform2D, inverse: AffineTransform2D)? {
        guard format.width > 0, format.height > 0, naturalSize.width > 0, naturalSize.height > 0,
              format.width != naturalSize.width || format.height != naturalSize.height else { return nil }
        let width = Double(format.width), height = Double(format.height)
        let scale = min(Double(naturalSize.width) / width, Double(naturalSize.height) / height)
        let x = (Double(naturalSize.width) - width * scale) / 2, y = (Double(naturalSize.height) - height * scale) / 2
        return (AffineTransform2D(a: scale, b: 0, c: 0, d: scale, tx: x, ty: y),
                AffineTransform2D(a: 1 / scale, b: 0, c: 0, d: 1 / scale, tx: -x / scale, ty: -y / scale))
    }

    /// The instruction containing `time`, if any. Instructions are in time order without overlap (the video
    /// composition's validation), so the only candidate is the last one starting at or before `time`, found by
    /// bisection: O(log n) in the instructions, so planning a long timeline stays linear in its length.
    func instructionIndex(at time: MediaTime) -> Int? {
        var low = 0, high = instructions.count  // becomes the first instruction starting after `time`
        while low < high {
            let middle = (low + high) / 2
            if instructions[middle].timeRange.start <= time { low = middle + 1 } else { high = middle }
        }
        guard low > 0, instructions[low - 1].timeRange.contains(time) else { return nil }
        return low - 1
    }
}
