import SpliceFFmpeg
import Composition
import VideoComposition
import Foundation
internal import CMedia

/// One layer of a graph configuration: its input picture and the values of its properties for the frames the
/// configuration renders. Opacity is nil when it changes frame to frame (then driven by commands). Effects are the
/// values for the frame; with ``sendsEffectAmounts`` the amounts that filters take as commands are not part of the
/// configuration, so a ramp of them keeps one graph (neutral amounts are still left out, so an effect that reaches
/// its neutral value rebuilds the graph without its filter, as before).
struct LayerConfiguration: Hashable {
    var input: PictureFormat
    var transform: AffineTransform2D
    var crop: Rect?
    var opacity: Double?
    /// The layer's effects at this frame, in order, neutral ones left out (``FilterGraphCompiler/effectSteps``).
    var effects: [VideoEffectValue] = []
    /// True when the amounts of ``effects`` that ``FilterGraphCompiler/takesAmountAsCommand(_:)`` are stand-ins
    /// (the parameter's neutral value), the real ones sent to the filters before each frame (``EffectCommand``).
    /// The renderer's configurations set it outside transitions; false writes every amount into the graph's text.
    var sendsEffectAmounts = false
}

/// An image overlay in a graph configuration.
struct ImageOverlayConfiguration: Hashable {
    var input: PictureFormat
    var frame: Rect
    /// Radians, clockwise on screen, about the frame's centre.
    var rotation: Double = 0
    var opacity: Double?
}

/// Everything that fixes the shape of one filter graph. The compositor rebuilds the graph when it changes
/// (instruction boundaries, a source of another size, a transform or crop that moves).
struct GraphConfiguration: Hashable {
    var instructionIndex: Int
    var background: RenderColor
    var canvas: Size
    var output: Size
    var frameRate: AVRationalKey
    /// Bottom-most first.
    var layers: [LayerConfiguration]
    var imageOverlays: [ImageOverlayConfiguration]
    var textOverlays: [TextOverlayConfiguration]
    /// The colour space and bit depth the layers are composited in and the output is tagged with.
    var color: CanvasColor = .standard
    /// The pixel format the graph hands the encoder (FFmpeg's name), when it is not the canvas's: ProRes takes
    /// `yuv422p10le`. Encoders do not convert, so the graph's last step does.
    var outputPixelFormat: String?
    /// A transition joining two of ``layers``: each drawn alone over the background, then the two canvases mixed
    /// by `xfade` at the configured progress. Part of the key, so a transition rebuilds the graph every frame.
    var transition: TransitionConfiguration? = nil
}

/// The transition of one graph configuration (``FilterGraphCompiler/compileTransition(_:)``).
struct TransitionConfiguration: Hashable {
    /// `xfade`'s `transition` value.
    var filterName: String
    /// Eased progress 0…1 (0 = all A), from the model.
    var progress: Double
    /// Index into ``GraphConfiguration/layers`` of the outgoing (A) and the incoming (B) layer.
    var outgoing: Int
    var incoming: Int
}

/// `AVRational` as a hashable key.
struct AVRationalKey: Hashable {
    var num: Int32
    var den: Int32
    var rational: AVRational { AVRational(num: num, den: den) }
}

/// A compiled graph: its description and the inputs it expects, in push order.
struct CompiledGraph {
    enum Input: Hashable {
        case background
        case layer(Int)          // index into GraphConfiguration.layers
        case imageOverlay(Int)   // index into GraphConfiguration.imageOverlays
    }
    var description: String
    var inputs: [(Input, PictureFormat)]
    /// The filters of layers/overlays whose opacity is driven per frame.
    var opacityTargets: [Input: OpacityTarget]
    /// The effects of layers whose amounts are sent per frame (``LayerConfiguration/sendsEffectAmounts``).
    var effectCommands: [Input: [EffectCommand]] = [:]
}
