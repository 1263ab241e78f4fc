import SpliceFFmpeg
import Composition
import Foundation
import VideoComposition
internal import CMedia

/// Renders the output frames of a ``VideoPlan`` one by one: for frame k it finds the instruction at k·frameDuration,
/// asks each layer's track for its picture, evaluates the layer's transform, crop and opacity with the model's own
/// evaluators, and runs the pictures through a filter graph compiled for that configuration
/// (``FilterGraphCompiler``). The graph is rebuilt only when the configuration changes (an instruction boundary,
/// a source of another format, a moving transform or crop); opacity ramps are driven per frame by
/// `avfilter_graph_send_command` on the layer's `lut`, so a ramp never rebuilds the graph, and so are the effect
/// ramps whose filters take commands (``EffectCommand``: `eq`, `exposure`, `colortemperature`, `gblur`).
/// `unsharp` and `vignette` ramps still rebuild the graph for every frame (no runtime-settable option in 5.1).
///
/// With a custom compositor (``VideoPlan/custom``) the layers are handed to it instead, and its picture is drawn
/// as the one opaque layer covering the canvas, under the overlays (`VideoCompositor+Custom.swift`).
///
/// Confined to one export worker.
final class VideoCompositor {
    let plan: VideoPlan
    let cancellation: CancellationFlag
    let trackRenderers: [Int32: TrackFrameSelector]
    private var graph: FilterGraph?
    private var compiled: CompiledGraph?
    private var configuration: GraphConfiguration?
    private var graphStartFrame = 0
    /// The argument last sent to each filter option of the current graph (`"lut@l0 y"`): a command repeating it is
    /// not sent, since each one makes its filter reconfigure (`lut` evaluates its 4 × 256 table entries again).
    private var sentArguments: [String: String] = [:]
    /// The commands sent to filters so far, each one reconfiguration of its filter.
    private(set) var filterReconfigurations = 0
    private var backgrounds: [RenderColor: Frame] = [:]
    private var overlayImages: [URL: Frame] = [:]
    private let output: Frame
    /// Source pictures to RGBA and back for the custom compositor (``VideoPlan/custom``); nil on the built-in path.
    let customPictures: CustomPictureConverter?
    private var instructionHint = 0
    /// How many filter graphs have been built so far (one per configuration change).
    private(set) var graphBuilds = 0
    /// How many background pictures (whole canvases) are kept for the graphs.
    var heldBackgrounds: Int { backgrounds.count }

    /// A compositor for `plan` whose sources are decoded with `decoderThreads` threads each (0: FFmpeg's choice,
    /// one per core).
    init(plan: VideoPlan, decoderThreads: Int32 = 0, cancellation: CancellationFlag) throws {
        self.plan = plan
        self.cancellation = cancellation
        var renderers: [Int32: TrackFrameSelector] = [:]
        for track in plan.tracks {
            renderers[track.trackID] = TrackFrameSelector(track: track, decoderThreads: decoderThreads, cancellation: cancellation)
        }
        trackRenderers = renderers
        output = try Frame()
        customPictures = try plan.custom.map {
            try CustomPictureConverter(color: plan.color, pixelFormat: $0.compositor.sourcePixelFormat)
        }
    }

    /// Renders output frame `index` (frames must be rendered in order 0, 1, 2, …) and hands every frame the graph
    /// releases to `emit`, with `pts` = its output frame index. The graph may hold a frame back until the next one
    /// is pushed; ``finish(emit:)`` releases the rest.
    func render(frame index: Int, emit: (Frame) throws -> Void) throws {
        try render(at: plan.time(ofFrame: index), sequence: index, emit: emit)
    }

    /// Renders the picture at composition time `time`; emitted frames carry `pts` = `sequence` (which must increase
    /// from call to call). Used directly by the image generator, whose times need not lie on the frame grid.
    func render(at time: MediaTime, sequence index: Int, emit: (Frame) throws -> Void) throws {
        if let custom = plan.custom {
            try renderCustom(at: time, sequence: index, custom: custom, emit: emit)
            return
        }
        if cancellation.isCancelled { throw CancellationError() }
        let instructionIndex = instruction(at: time)

        // The pictures and their property values at this time, bottom layer first.
        var layerFrames: [Frame] = []
        var imageFrames: [Frame] = []
        let (wanted, layerOpacities, layerEffects) = try plan.configuration(
            at: time, instructionIndex: instructionIndex,
            picture: { trackID in
                guard let renderer = trackRenderers[trackID], let picture = try renderer.frame(at: time) else { return nil }
                layerFrames.append(picture)
                var format = PictureFormat(of: picture)
                if let color = renderer.shownColor { format = format.applying(color) }
                return (format, renderer.shownNaturalSize ?? Size(width: picture.width, height: picture.height))
            },
            image: { url in
                let picture = try image(at: url)
                imageFrames.append(picture)
                return PictureFormat(of: picture)
            })
        try composite(wanted, layerFrames: layerFrames, imageFrames: imageFrames, layerOpacities: layerOpacities,
                      layerEffects: layerEffects, sequence: index, emit: emit)
    }

    /// Pushes one frame's pictures through the graph compiled for `wanted` (rebuilt when it differs from the current
    /// one) and hands every frame the graph releases to `emit`. `layerFrames`, `layerOpacities` and `layerEffects`
    /// (each layer's effects evaluated for this frame) are per layer of `wanted`, `imageFrames` per image overlay;
    /// emitted frames carry `pts` = `sequence`.
    func composite(_ wanted: GraphConfiguration, layerFrames: [Frame], imageFrames: [Frame], layerOpacities: [Double],
                   layerEffects: [[VideoEffectValue]], sequence index: Int, emit: (Frame) throws -> Void) throws {
        let imageConfigurations = wanted.imageOverlays
        if wanted != configuration {
            try finish(emit: emit)
            try build(wanted, startingAt: index)
            releaseUnusedBackgrounds()
        }
        guard let graph, let compiled else { return }

        let localPTS = Int64(index - graphStartFrame)
        for (input, _) in compiled.inputs.enumerated() {
            let role = compiled.inputs[input].0
            if let target = compiled.opacityTargets[role] {
                let opacity: Double
                switch role {
                case .layer(let i): opacity = layerOpacities[i]
                case .imageOverlay(let i): opacity = imageConfigurations[i].opacity ?? 1
                case .background: opacity = 1
                }
                try send(target.options(opacity: opacity).map { ($0.name, $0.expression) }, to: target.filter, in: graph)
            }
            if case .layer(let i) = role, let commands = compiled.effectCommands[role] {
                try send(commands, amounts: layerEffects[i], to: graph)
            }
            let picture: Frame
            switch role {
            case .background: picture = try background(wanted.background)
            case .layer(let i): picture = layerFrames[i]
            case .imageOverlay(let i): picture = imageFrames[i]
            }
            picture.pts = localPTS
            // The sources are declared with square pixels. A frame stating no aspect ratio (0:1: PNGs, many phone
            // files) or another one makes `scale` rebuild its swscale contexts for every frame; say 1:1 as declared.
            picture.resetPictureType()
            picture.markSquarePixels()
            do {
                try graph.push(picture, to: input, keepReference: true)
            } catch {
                throw ExportError.renderingFailed(stage: "filtering frame \(index)", reason: "\(error)")
            }
        }
        try drain(graph, emit: emit)
    }

    /// Flushes the current graph: end of stream on every input, then every remaining frame to `emit`.
    func finish(emit: (Frame) throws -> Void) throws {
        guard let graph, let compiled else { return }
        for input in compiled.inputs.indices { try graph.push(nil, to: input) }
        try drain(graph, emit: emit)
        self.graph = nil
        self.compiled = nil
        self.configuration = nil
    }

    /// Sends one layer's effect amounts for the next frame to their filters (``EffectCommand``), each argument
    /// written as a graph built for this frame would write it.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` for an argument beyond the option's maximum (a blur ramp
    ///   whose sigma in source pixels passes `gblur`'s 1024); ``ExportError/renderingFailed(stage:reason:)`` when
    ///   FFmpeg refuses the command.
    private func send(_ commands: [EffectCommand], amounts: [VideoEffectValue], to graph: FilterGraph) throws {
        for command in commands {
            guard command.effect < amounts.count, case .adjustment(let parameter, let amount) = amounts[command.effect] else {
                throw ExportError.renderingFailed(stage: "driving \(command.target)", reason: "no amount for this frame")
            }
            for option in command.options {
                let value = amount / option.divisor
                if let maximum = command.maximum, value > maximum {
                    throw ExportError.unsupportedSettings(
                        "a layer effect cannot be drawn: a \(parameter.rawValue) of \(amount) needs \(option.name) "
                            + "\(value) in source pixels; \(parameter.filterName) takes at most \(maximum)")
                }
                do {
                    try send([(option.name, FilterGraphCompiler.format(value))], to: command.target, in: graph)
                } catch {
                    throw ExportError.renderingFailed(stage: "setting \(option.name) of \(command.target)", reason: "\(error)")
                }
            }
        }
    }

    /// Sets `options` of the filter `target` for the next frame: those the current graph does not have already, in
    /// one reconfiguration of the filter (``FilterGraph/sendCommands(target:options:)``).
    private func send(_ options: [(name: String, argument: String)], to target: String, in graph: FilterGraph) throws {
        let changed = options.filter { sentArguments[target + " " + $0.name] != $0.argument }
        guard !changed.isEmpty else { return }
        let sent = graph.commandsSent
        defer { filterReconfigurations += graph.commandsSent - sent }
        try graph.sendCommands(target: target, options: changed)
        for option in changed { sentArguments[target + " " + option.name] = option.argument }
    }

    private func drain(_ graph: FilterGraph, emit: (Frame) throws -> Void) throws {
        while true {
            let result: FilterGraph.Output
            do {
                result = try graph.pull(from: 0, into: output)
            } catch {
                throw ExportError.renderingFailed(stage: "filtering", reason: "\(error)")
            }
            guard result == .frame else { return }
            output.pts += Int64(graphStartFrame)
            try emit(output)
            output.unref()
        }
    }

    private func build(_ wanted: GraphConfiguration, startingAt index: Int) throws {
        let compiledGraph: CompiledGraph
        do {
            compiledGraph = try FilterGraphCompiler.compile(wanted)
        } catch FilterGraphCompilerError.geometryOutOfRange(let value) {
            throw ExportError.unsupportedSettings("a layer or overlay position or size of \(value) pixels cannot be rendered")
        } catch FilterGraphCompilerError.effectNotRenderable(let reason) {
            throw ExportError.unsupportedSettings("a layer effect cannot be drawn: \(reason)")
        }
        let timeBase = AVRational(num: Int32(clamping: plan.frameDuration.value), den: plan.frameDuration.timescale)
        let sources: [FilterGraph.Source] = compiledGraph.inputs.map { role, format in
            let label: String
            switch role {
            case .background: label = "bg"
            case .layer(let i): label = "L\(i)"
            case .imageOverlay(let i): label = "I\(i)"
            }
            // `xfade` (a transition) needs its inputs to declare a constant frame rate.
            return .video(.init(label: label, width: format.width, height: format.height,
                                pixelFormat: format.pixelFormat, timeBase: timeBase,
                                frameRate: wanted.transition == nil ? nil : wanted.frameRate.rational))
        }
        do {
            graph = try FilterGraph(description: compiledGraph.description, sources: sources, sinkLabels: ["out"],
                                    sinkIsAudio: [false], threads: 0)
        } catch {
            // A filter missing from this FFmpeg build (e.g. an LGPL build without a GPL-only filter) is named.
            if let missing = FilterGraphCompiler.filterNames(in: compiledGraph.description).first(where: { !MediaLibrary.hasFilter(named: $0) }) {
                throw ExportError.filterUnavailable(missing)
            }
            throw ExportError.renderingFailed(
                stage: "building the video graph\n\(compiledGraph.description)\n", reason: "\(error)")
        }
        compiled = compiledGraph
        configuration = wanted
        sentArguments = [:]
        graphBuilds += 1
        graphStartFrame = index
    }

    func instruction(at time: MediaTime) -> Int? {
        let instructions = plan.instructions
        if instructionHint < instructions.count, instructions[instructionHint].timeRange.contains(time) {
            return instructionHint
        }
        if let index = plan.instructionIndex(at: time) {
            instructionHint = index
            return index
        }
        return nil
    }

    /// Frees the background pictures the current graph does not draw: each is a whole canvas (3 MiB at 1080p
    /// 4:2:0), and most graphs draw none (a layer covering the canvas is its own base). The one the graph draws stays,
    /// so a run of frames drawn over one background makes it once.
    private func releaseUnusedBackgrounds() {
        guard !backgrounds.isEmpty, let configuration, let compiled else { return }
        let drawsBackground = compiled.inputs.contains { if case .background = $0.0 { true } else { false } }
        backgrounds = drawsBackground ? backgrounds.filter { $0.key == configuration.background } : [:]
    }

    /// A solid 8-bit SDR frame of `color` (made by FFmpeg's `color` source when a graph first draws it, kept while
    /// the graphs draw it); the graph converts it into the canvas's colour space like any SDR picture.
    private func background(_ color: RenderColor) throws -> Frame {
        if let frame = backgrounds[color] { return frame }
        let frame = try SolidFrame.make(color: color, size: plan.renderSize)
        backgrounds[color] = frame
        return frame
    }

    func image(at url: URL) throws -> Frame {
        if let frame = overlayImages[url] { return frame }
        let frame = try StillImage.decode(url: url, cancellation: cancellation)
        overlayImages[url] = frame
        return frame
    }
}
