import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Why a configuration cannot be compiled.
enum FilterGraphCompilerError: Error {
    /// A position or size (pixels) that no picture can have: beyond ±2^31, or not a number.
    case geometryOutOfRange(Double)
    /// A layer effect that this canvas or picture cannot draw (the reason says which and why).
    case effectNotRenderable(String)
}

/// Compiles a ``GraphConfiguration`` into FFmpeg filter-graph text, choosing the cheapest exact filter per case
/// (the rendering rules in docs/document-format.md and the README):
/// - identity at canvas size, opaque: no filter at all (the layer is the canvas);
/// - scale + translate (with flips): `scale` (+ `hflip`/`vflip`) and an `overlay` at the position;
/// - multiples of 90°: one `transpose` (+ `scale`) and an `overlay`;
/// - rotation with scale: `scale`, then `rotate` on a transparent margin, then `overlay`;
/// - any other affine (shear): `perspective` on an edge-extended picture with a transparent margin (``warp``);
/// - a singular transform (determinant 0): nothing (the picture covers no pixel);
/// - opacity: the layer's alpha plane scaled by `lut` (`a=val*opacity`), blended by `overlay`;
///   a layer covering an 8-bit black canvas is blended with black by its `lut` alone, the same pixels (``OpacityTarget``);
/// - a transition: its two layers each over the background, joined by `xfade` (``transitionBase(_:_:)``);
/// - effects: their filters on the cropped picture before the transform (``effectSteps(for:transform:color:)``).
/// Every picture is brought into the canvas's colour space and format (``CanvasColor``: 8-bit SDR BT.709 unless the
/// plan says otherwise; HDR canvases are 10-bit and blend with `overlay=format=yuv420p10`) by
/// ``normalizationSteps(for:canvas:keepAlpha:chromaSubsampled:)``, naming the source's matrix and range; a source
/// already in that format passes untouched, so a pass-through region stays exact.
enum FilterGraphCompiler {
    static func compile(_ configuration: GraphConfiguration) throws -> CompiledGraph {
        var chains: [String] = []
        var inputs: [(CompiledGraph.Input, PictureFormat)] = []
        var opacityTargets: [CompiledGraph.Input: OpacityTarget] = [:]
        var effectCommands: [CompiledGraph.Input: [EffectCommand]] = [:]
        let canvas = configuration.canvas
        let color = configuration.color

        // The base: the two canvases of a transition joined by `xfade`; else the bottom layer itself when it exactly
        // covers the canvas opaquely, else the background.
        var layers = Array(configuration.layers.enumerated())
        var base: String
        if let transition = configuration.transition {
            let joined = try transitionBase(configuration, transition)
            chains = joined.chains
            inputs = joined.inputs
            opacityTargets = joined.opacityTargets
            base = joined.base
            layers = []
        } else if let (index, bottom) = layers.first, coversCanvas(bottom, canvas: canvas) {
            let label = "L\(index)"
            inputs.append((.layer(index), bottom.input))
            let (steps, commands) = try coveringSteps(bottom, canvas: canvas, color: color, name: "l\(index)")
            if !commands.isEmpty { effectCommands[.layer(index)] = commands }
            chains.append("[\(label)]" + (steps.isEmpty ? "null" : steps.joined(separator: ",")) + "[base0]")
            base = "base0"
            layers.removeFirst()
        } else if let (index, bottom) = layers.first, blendsOverBlack(bottom, configuration) {
            inputs.append((.layer(index), bottom.input))
            let (steps, commands) = try coveringSteps(bottom, canvas: canvas, color: color, name: "l\(index)")
            if !commands.isEmpty { effectCommands[.layer(index)] = commands }
            let target = OpacityTarget(filter: "lut@l\(index)", form: .overBlack)
            if bottom.opacity == nil { opacityTargets[.layer(index)] = target }
            chains.append("[L\(index)]" + (steps + [target.declaration(opacity: bottom.opacity ?? 1)]).joined(separator: ",") + "[base0]")
            base = "base0"
            layers.removeFirst()
        } else {
            let background = PictureFormat(width: canvas.width, height: canvas.height)
            inputs.append((.background, background))
            let steps = normalizationSteps(for: background, canvas: color, keepAlpha: false)
            chains.append("[bg]" + (steps.isEmpty ? "null" : steps.joined(separator: ",")) + "[base0]")
            base = "base0"
        }

        var stage = 0
        for (index, layer) in layers {
            guard let placed = try place(layer: layer, canvas: canvas, color: color, label: "L\(index)", name: "l\(index)") else { continue }
            inputs.append((.layer(index), layer.input))
            if let target = placed.opacityTarget { opacityTargets[.layer(index)] = target }
            if !placed.effectCommands.isEmpty { effectCommands[.layer(index)] = placed.effectCommands }
            stage += 1
            let even = evenPlacement(x: placed.x, y: placed.y, color: color)
            chains.append(placed.chain + even.steps + "[lay\(index)]")
            chains.append("[\(base)][lay\(index)]overlay=x=\(even.x):y=\(even.y):format=\(color.overlayFormat)[base\(stage)]")
            base = "base\(stage)"
        }

        for (index, overlay) in configuration.imageOverlays.enumerated() {
            let width = max(1, try pixels(overlay.frame.width)), height = max(1, try pixels(overlay.frame.height))
            var steps = ["scale=\(width):\(height)"] + graphicSteps(canvas: color)
            let target = OpacityTarget(filter: "lut@i\(index)", form: .alphaScale)
            steps.append(target.declaration(opacity: overlay.opacity ?? 1))
            if overlay.opacity == nil { opacityTargets[.imageOverlay(index)] = target }
            inputs.append((.imageOverlay(index), overlay.input))
            stage += 1
            var origin = (x: try pixels(overlay.frame.minX), y: try pixels(overlay.frame.minY))
            if overlay.rotation != 0 {
                // Rotated about its centre on a transparent canvas just large enough, then placed so the centres meet.
                let angle = overlay.rotation
                let w = Double(width), h = Double(height)
                var outW = Int((abs(w * cos(angle)) + abs(h * sin(angle))).rounded(.up))
                var outH = Int((abs(w * sin(angle)) + abs(h * cos(angle))).rounded(.up))
                outW += outW % 2
                outH += outH % 2
                steps.append("rotate=a=\(format(angle)):ow=\(outW):oh=\(outH):c=none:bilinear=1")
                origin = (try pixels(overlay.frame.midX - Double(outW) / 2), try pixels(overlay.frame.midY - Double(outH) / 2))
            }
            let even = evenPlacement(x: origin.x, y: origin.y, color: color)
            chains.append("[I\(index)]" + steps.joined(separator: ",") + even.steps + "[img\(index)]")
            chains.append("[\(base)][img\(index)]overlay=x=\(even.x):y=\(even.y):format=\(color.overlayFormat)[base\(stage)]")
            base = "base\(stage)"
        }

        for (index, text) in configuration.textOverlays.enumerated() {
            guard let layer = try text.layer(canvas: canvas, color: color, frameRate: configuration.frameRate) else { continue }
            stage += 1
            let even = evenPlacement(x: layer.x, y: layer.y, color: color)
            chains.append(layer.chain + even.steps + "[txt\(index)]")
            // The text's `color` source never ends: the overlay ends with the canvas (`shortest`).
            chains.append("[\(base)][txt\(index)]overlay=x=\(even.x):y=\(even.y):format=\(color.overlayFormat):shortest=1[base\(stage)]")
            base = "base\(stage)"
        }

        var tail: [String] = []
        if configuration.output != canvas {
            tail.append("scale=\(configuration.output.width):\(configuration.output.height)")
        }
        tail.append("format=\(configuration.outputPixelFormat ?? color.pixelFormatName(alpha: false))")
        tail.append(color.setparams)
        chains.append("[\(base)]" + tail.joined(separator: ",") + "[out]")
        return CompiledGraph(description: chains.joined(separator: ";\n"), inputs: inputs, opacityTargets: opacityTargets,
                             effectCommands: effectCommands)
    }

    /// Where to overlay a layer meant for pixel (x, y), and the filters (appended to its chain, each with a leading
    /// comma) that keep it there: `overlay=format=yuv420` aligns positions to even pixels (chroma), which moved a layer
    /// at an odd x or y one pixel up-left. Such a layer is padded with one transparent column / row on that side, in
    /// 4:4:4 where a one-pixel pad is exact, and placed one pixel earlier, on an even position.
    static func evenPlacement(x: Int, y: Int, color: CanvasColor = .standard) -> (steps: String, x: Int, y: Int) {
        let dx = ((x % 2) + 2) % 2, dy = ((y % 2) + 2) % 2
        guard dx != 0 || dy != 0 else { return ("", x, y) }
        return (",format=\(color.pixelFormatName(alpha: true, subsampled: false)),pad=w=iw+\(dx):h=ih+\(dy):x=\(dx):y=\(dy)"
                + ":color=black@0,format=\(color.pixelFormatName(alpha: true))", x - dx, y - dy)
    }

    /// True when `layer` maps its whole picture exactly onto the whole canvas, upright, opaque and uncropped.
    static func coversCanvas(_ layer: LayerConfiguration, canvas: Size) -> Bool {
        let t = layer.transform
        guard layer.crop == nil, layer.opacity == 1, !layer.input.hasAlpha,
              t.b == 0, t.c == 0, t.a > 0, t.d > 0, t.tx == 0, t.ty == 0 else { return false }
        return (try? pixels(t.a * Double(layer.input.width))) == canvas.width
            && (try? pixels(t.d * Double(layer.input.height))) == canvas.height
    }

    /// True when `layer` would ``coversCanvas(_:canvas:)`` but for its opacity, over the black background of an
    /// 8-bit SDR canvas: one `lut` then blends it with black (``OpacityTarget/Form/overBlack``), the same pixels as
    /// its alpha scaled and `overlay` over the background.
    static func blendsOverBlack(_ layer: LayerConfiguration, _ configuration: GraphConfiguration) -> Bool {
        var opaque = layer
        opaque.opacity = 1
        return layer.opacity != 1 && configuration.background == .black && configuration.color == .standard
            && configuration.transition == nil && coversCanvas(opaque, canvas: configuration.canvas)
    }

    /// The chain of a layer that ``coversCanvas(_:canvas:)``: its effects, its conversion into the canvas format,
    /// and a scale when its size differs from the canvas's (2:1 pixels widened, 1920x1080 on a 1280x720 canvas);
    /// with the commands of its effects driven per frame when a `name` is given (``effectSteps(for:transform:color:name:)``).
    static func coveringSteps(_ layer: LayerConfiguration, canvas: Size, color: CanvasColor, name: String? = nil)
        throws -> (steps: [String], commands: [EffectCommand]) {
        let effected = try effectSteps(for: layer, transform: layer.transform, color: color, name: name)
        var steps = effected.steps + normalizationSteps(for: effected.format, canvas: color, keepAlpha: false)
        if layer.input.width != canvas.width || layer.input.height != canvas.height {
            steps.append("scale=\(canvas.width):\(canvas.height)")
        }
        return (steps, effected.commands)
    }

    /// `value` rounded to whole pixels (half away from zero, or `rule`).
    /// - Throws: ``FilterGraphCompilerError/geometryOutOfRange(_:)`` beyond ±2^31 pixels or for NaN, where `Int()`
    ///   would trap (a finite transform of 1e300 passes validation).
    static func pixels(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) throws -> Int {
        let rounded = value.rounded(rule)
        guard rounded.magnitude < 2_147_483_648 else { throw FilterGraphCompilerError.geometryOutOfRange(value) }
        return Int(rounded)
    }

    /// A layer's chain and where to overlay it.
    struct PlacedLayer {
        var chain: String
        /// Canvas position (pixels) of the chain's output.
        var x: Int
        var y: Int
        var opacityTarget: OpacityTarget?
        /// The layer's effects driven per frame (``EffectCommand``).
        var effectCommands: [EffectCommand] = []
    }

    /// The chain turning a source picture into a canvas-format layer positioned at (x, y), or nil when the layer
    /// is invisible (cropped or scaled to nothing).
    static func place(layer: LayerConfiguration, canvas: Size, color: CanvasColor = .standard, label: String,
                      name: String) throws -> PlacedLayer? {
        guard layer.input.width < 1 << 31, layer.input.height < 1 << 31 else {
            throw FilterGraphCompilerError.geometryOutOfRange(Double(max(layer.input.width, layer.input.height)))
        }
        var width = Double(layer.input.width), height = Double(layer.input.height)
        var steps: [String] = []
        var transform = layer.transform

        if let crop = layer.crop {
            let bounds = Rect(x: 0, y: 0, width: width, height: height)
            let x0 = max(crop.minX, 0), y0 = max(crop.minY, 0)
            let x1 = min(crop.maxX, bounds.maxX), y1 = min(crop.maxY, bounds.maxY)
            let cx = try pixels(x0), cy = try pixels(y0)
            let cw = try pixels(x1) - cx, ch = try pixels(y1) - cy
            guard cw > 0, ch > 0 else { return nil }
            if cw != Int(width) || ch != Int(height) {
                steps.append("crop=\(cw):\(ch):\(cx):\(cy):exact=1")
                transform = AffineTransform2D(translationX: Double(cx), y: Double(cy)).concatenating(transform)
                width = Double(cw)
                height = Double(ch)
            }
        }

        // Effects on the cropped picture, in the canvas format; the rest of the chain starts from what they leave.
        var layer = layer
        let effected = try effectSteps(for: layer, transform: transform, color: color, name: name)
        steps += effected.steps
        layer.input = effected.format

        let needsAlpha: Bool
        let box = transform.apply(to: Rect(x: 0, y: 0, width: width, height: height))
        let t = transform
        switch LayerGeometry(t) {
        case .singular:
            return nil
        case .general:
            var warped = try warp(layer: layer, transform: t, width: Int(width), height: Int(height), canvas: canvas,
                                  color: color, steps: steps, label: label, name: name)
            warped?.effectCommands = effected.commands
            return warped
        case .axisAligned, .quarterTurn, .rotation:
            break
        }
        var x = try pixels(box.minX), y = try pixels(box.minY)
        if t.b == 0 && t.c == 0 {
            let w = try pixels(abs(t.a) * width), h = try pixels(abs(t.d) * height)
            guard w > 0, h > 0 else { return nil }
            steps += normalizationSteps(for: layer.input, canvas: color, keepAlpha: layer.input.hasAlpha)
            if w != Int(width) || h != Int(height) { steps.append("scale=\(w):\(h)") }
            if t.a < 0 { steps.append("hflip") }
            if t.d < 0 { steps.append("vflip") }
            needsAlpha = layer.input.hasAlpha
        } else if t.a == 0 && t.d == 0 {
            let direction: Int
            switch (t.c > 0, t.b > 0) {
            case (true, true): direction = 0
            case (false, true): direction = 1
            case (true, false): direction = 2
            case (false, false): direction = 3
            }
            let w = try pixels(abs(t.c) * height), h = try pixels(abs(t.b) * width)
            guard w > 0, h > 0 else { return nil }
            steps += normalizationSteps(for: layer.input, canvas: color, keepAlpha: layer.input.hasAlpha)
            steps.append("transpose=\(direction)")
            if w != Int(height) || h != Int(width) { steps.append("scale=\(w):\(h)") }
            needsAlpha = layer.input.hasAlpha
        } else {
            // Rotation and scale, no shear (LayerGeometry.rotation): M = R(θ) · diag(sx, sy), sx > 0.
            let sx = (t.a * t.a + t.b * t.b).squareRoot()
            let sy = t.determinant / sx
            let angle = atan2(t.b, t.a)
            let w = try pixels(sx * width), h = try pixels(abs(sy) * height)
            guard w > 0, h > 0 else { return nil }
            steps += normalizationSteps(for: layer.input, canvas: color, keepAlpha: true)
            if w != Int(width) || h != Int(height) { steps.append("scale=\(w):\(h)") }
            if sy < 0 { steps.append("vflip") }
            let outW = try pixels(box.width, .up), outH = try pixels(box.height, .up)
            steps.append("rotate=a=\(format(angle)):ow=\(outW + outW % 2):oh=\(outH + outH % 2):c=none:bilinear=1")
            // The rotated picture is centred in its output; its centre lands on T(centre of the source).
            let centre = t.apply(to: Point(x: width / 2, y: height / 2))
            x = try pixels(centre.x - Double(outW + outW % 2) / 2)
            y = try pixels(centre.y - Double(outH + outH % 2) / 2)
            needsAlpha = true
        }

        var opacityTarget: OpacityTarget?
        if layer.opacity != 1 || needsAlpha {
            let alphaFormat = "format=\(color.pixelFormatName(alpha: true))"
            if !steps.contains(alphaFormat) {
                steps.append(alphaFormat)
            }
            if layer.opacity != 1 {
                let target = OpacityTarget(filter: "lut@\(name)", form: .alphaScale)
                steps.append(target.declaration(opacity: layer.opacity ?? 1))
                if layer.opacity == nil { opacityTarget = target }
            }
        }
        let chain = "[\(label)]" + (steps.isEmpty ? "null" : steps.joined(separator: ","))
        return PlacedLayer(chain: chain, x: x, y: y, opacityTarget: opacityTarget, effectCommands: effected.commands)
    }

    /// A value escaped for a filter option inside a graph description. FFmpeg un-escapes twice — the graph parser
    /// (`av_get_token` with `[],;`), then the filter's option parser (`:`) — so the value is backslash-escaped for
    /// the option level and the result again for the graph level.
    static func escape(_ value: String) -> String {
        func backslashing(_ text: String, _ specials: Set<Character>) -> String {
            var escaped = ""
            for character in text {
                if specials.contains(character) { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped
        }
        return backslashing(backslashing(value, ["\\", "'", ":"]), ["\\", "'", "[", "]", ",", ";"])
    }

    /// The filter names a description uses (`scale`, `overlay`, `lut`, …), instance suffixes (`@l0`) removed.
    static func filterNames(in description: String) -> Set<String> {
        var names: Set<String> = []
        for chain in description.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            var text = Substring(chain.trimmingCharacters(in: .whitespacesAndNewlines))
            while text.hasPrefix("["), let close = text.firstIndex(of: "]") { text = text[text.index(after: close)...] }
            let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            let next = text.dropFirst(name.count).first
            if !name.isEmpty, next == nil || next == "=" || next == "@" || next == "[" { names.insert(String(name)) }
        }
        return names
    }

    /// A number in a filter argument: fixed notation, enough digits for 8-bit exactness and sub-pixel geometry.
    static func format(_ value: Double) -> String {
        String(format: "%.6f", value)
    }
}
