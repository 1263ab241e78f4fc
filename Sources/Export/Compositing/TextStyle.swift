/// How `drawtext` finds its font: a file, a family name resolved by fontconfig (FFmpeg's `font=` option), or, for
/// a text no one font covers, runs each drawn with its own font file (``TextLayout``).
enum FontChoice: Hashable, Sendable {
    case file(String)
    case family(String)
    case runs(TextLayout)
}

/// The constant part of a text overlay: what `drawtext` draws and how it looks, the same at every time.
struct TextStyle: Hashable, Sendable {
    var text: String
    var font: FontChoice
    /// `left`, `center` or `right` within the frame.
    var alignment: String
    /// Pixels.
    var fontSize: Double
    var color: RenderColor
    /// The box behind the text, or nil for none.
    var background: RenderColor?
    /// Pixels between the text and the frame's side (left/right alignment) and around the text in the box.
    var padding: Double
}
