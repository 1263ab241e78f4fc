/// A layer effect whose amount the compositor sends to its filter before every frame (FFmpeg's
/// `avfilter_graph_send_command`, ``FilterGraph/sendCommand(target:command:argument:)``) instead of writing it into
/// the graph's text, so that a keyframed effect (a brightness or blur ramp) keeps one graph for the whole ramp
/// instead of one per frame. Made by ``FilterGraphCompiler/effectSteps(for:transform:color:name:)`` for the
/// parameters ``FilterGraphCompiler/takesAmountAsCommand(_:)`` accepts.
///
/// The argument of each option is the frame's amount divided by the option's divisor, written as the graph text
/// would write it (``FilterGraphCompiler/format(_:)``), so the filter parses the same number a graph built for that
/// frame would.
struct EffectCommand: Hashable {
    /// One option of the filter set from the amount.
    struct Option: Hashable {
        /// The option's name (`brightness`, `sigma`, …).
        var name: String
        /// What the amount is divided by: 1, or for `gblur` the length (canvas pixels) of one source pixel along x
        /// (`sigma`) or y (`sigmaV`) under the layer's transform.
        var divisor: Double
    }

    /// Index into the layer's ``LayerConfiguration/effects``, and into the frame's amounts of that layer.
    var effect: Int
    /// The filter instance (`eq@l0e1`): FFmpeg needs the full instance name.
    var target: String
    var options: [Option]
    /// The largest argument the option accepts (`gblur`'s 1024 source pixels), checked before every frame; nil
    /// when the model's own range already fits the filter's.
    var maximum: Double?
}
