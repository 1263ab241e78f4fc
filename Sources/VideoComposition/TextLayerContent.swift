import Composition
import Foundation

/// The text of a text overlay and how it looks (the Linux counterpart of a `CATextLayer`; the renderer draws it with
/// FFmpeg's `drawtext`).
public struct TextLayerContent: Sendable, Hashable {
    /// Horizontal alignment of the lines inside the overlay's frame.
    public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable {
        /// Lines start at the frame's left edge (plus padding).
        case left
        /// Lines are centred in the frame.
        case center
        /// Lines end at the frame's right edge (minus padding).
        case right
    }

    /// The text; `\n` starts a new line.
    public var string: String
    /// A font file (TrueType/OpenType) to draw the whole text with, used as given (a character it lacks is drawn
    /// as its `.notdef` box); when nil, ``fontFamily`` is looked up with fontconfig.
    public var fontFile: URL?
    /// A fontconfig family name (`"DejaVu Sans"`, `"sans-serif"`), used when ``fontFile`` is nil. Each character is
    /// drawn with the first font in fontconfig's fallback order for the family that has it (the family's own font
    /// for every character it has; e.g. a CJK font for the `标题` of `"Title 标题"`). FFmpeg's `drawtext` draws one
    /// text with one font, so a text that needs several is drawn in runs, one `drawtext` per font, placed where one
    /// `drawtext` would put the glyphs if one font had them all (one baseline, the same alignment and centring).
    /// Export throws `ExportError.noFontForCharacter` naming a character no installed font has. Arabic and Hebrew
    /// are shaped and each right-to-left run is reversed (FFmpeg 5.1's `drawtext` with libfribidi, over the whole
    /// line); the line itself is laid out left to right (an Arabic run at the start stays on the left), and scripts
    /// that need OpenType shaping (Devanagari, Thai, …) are drawn unshaped.
    public var fontFamily: String
    /// The font size in pixels of the render canvas (the em height).
    public var fontSize: Double
    /// The text colour.
    public var color: Color
    /// Horizontal alignment within the overlay frame.
    public var alignment: Alignment
    /// The colour of a box drawn behind the text (the overlay's frame); nil for none.
    public var backgroundColor: Color?
    /// Space in pixels between the frame's edges and the text.
    public var padding: Double

    /// A text content description.
    ///
    /// - Parameters:
    ///   - string: the text.
    ///   - fontFile: a font file, or nil to use `fontFamily`.
    ///   - fontFamily: a fontconfig family name; `"sans-serif"` by default.
    ///   - fontSize: pixels; must be > 0.
    ///   - color: white by default.
    ///   - alignment: centred by default.
    ///   - backgroundColor: a box behind the text, or nil.
    ///   - padding: pixels between frame edge and text; 0 by default.
    public init(
        string: String, fontFile: URL? = nil, fontFamily: String = "sans-serif", fontSize: Double, color: Color = .white,
        alignment: Alignment = .center, backgroundColor: Color? = nil, padding: Double = 0
    ) {
        self.string = string
        self.fontFile = fontFile
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.color = color
        self.alignment = alignment
        self.backgroundColor = backgroundColor
        self.padding = padding
    }
}

extension TextLayerContent: Codable {
    private enum CodingKeys: String, CodingKey {
        case string, fontFile, fontFamily, fontSize, color, alignment, backgroundColor, padding
    }

    /// Decodes a text description; `string` and `fontSize` are required, the rest default as in the initializer.
    /// `fontFile` is a path or a `file://` URL string.
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            string: try container.decode(String.self, forKey: .string),
            fontFile: try container.decodeIfPresent(String.self, forKey: .fontFile).map(URL.init(fileReference:)),
            fontFamily: try container.decodeIfPresent(String.self, forKey: .fontFamily) ?? "sans-serif",
            fontSize: try container.decode(Double.self, forKey: .fontSize),
            color: try container.decodeIfPresent(Color.self, forKey: .color) ?? .white,
            alignment: try container.decodeIfPresent(Alignment.self, forKey: .alignment) ?? .center,
            backgroundColor: try container.decodeIfPresent(Color.self, forKey: .backgroundColor),
            padding: try container.decodeIfPresent(Double.self, forKey: .padding) ?? 0)
    }

    /// Encodes every field (`fontFile` as its URL string, optional fields only when set).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(string, forKey: .string)
        try container.encodeIfPresent(fontFile?.absoluteString, forKey: .fontFile)
        try container.encode(fontFamily, forKey: .fontFamily)
        try container.encode(fontSize, forKey: .fontSize)
        try container.encode(color, forKey: .color)
        try container.encode(alignment, forKey: .alignment)
        try container.encodeIfPresent(backgroundColor, forKey: .backgroundColor)
        try container.encode(padding, forKey: .padding)
    }
}
