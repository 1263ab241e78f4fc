/// How a burnt-in subtitle track whose cues carry no style of their own (SubRip, WebVTT, mov_text) is drawn: the
/// font, its size and colours, the outline, and where the cues sit. Sizes are pixels of the picture the cues are
/// drawn on (the export's encoded size). Given to libass as style overrides (the `force_style` of FFmpeg's
/// `subtitles` filter) of the script's `Default` style; ASS cues keep their own styles.
public struct SubtitleStyle: Sendable, Hashable, Codable {
    /// Where the cues sit in the picture, centred horizontally.
    public enum Position: String, Sendable, Hashable, Codable {
        /// Above the bottom edge by ``SubtitleStyle/margin`` (the usual place of captions).
        case bottom
        /// In the middle of the picture.
        case middle
        /// Below the top edge by ``SubtitleStyle/margin``.
        case top
    }

    /// The font family, found through fontconfig like a text layer's; characters it lacks are drawn by
    /// fontconfig's fallback fonts (libass's own fallback). Default `"DejaVu Sans"`.
    public var fontFamily: String
    /// The font size in pixels (the ASS `FontSize`: the line's height). Default 32.
    public var fontSize: Double
    /// The text colour; its alpha is the text's opacity. Default opaque white.
    public var color: Color
    /// The outline colour. Default opaque black.
    public var outlineColor: Color
    /// The outline width in pixels; 0 draws none. Default 2.
    public var outlineWidth: Double
    /// Where the cues sit. Default ``Position/bottom``.
    public var position: Position
    /// The distance in pixels between the cues and the picture's bottom (or top) edge. Default 24.
    public var margin: Double

    /// A style; every parameter has the default its property states.
    public init(fontFamily: String = "DejaVu Sans", fontSize: Double = 32, color: Color = .white,
                outlineColor: Color = .black, outlineWidth: Double = 2,
                position: Position = .bottom, margin: Double = 24) {
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.color = color
        self.outlineColor = outlineColor
        self.outlineWidth = outlineWidth
        self.position = position
        self.margin = margin
    }

    private enum CodingKeys: String, CodingKey {
        case fontFamily, fontSize, color, outlineColor, outlineWidth, position, margin
    }

    /// Decodes a style; a member left out takes its default.
    /// - Throws: `DecodingError` for a member of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SubtitleStyle()
        self.init(
            fontFamily: try container.decodeIfPresent(String.self, forKey: .fontFamily) ?? defaults.fontFamily,
            fontSize: try container.decodeIfPresent(Double.self, forKey: .fontSize) ?? defaults.fontSize,
            color: try container.decodeIfPresent(Color.self, forKey: .color) ?? defaults.color,
            outlineColor: try container.decodeIfPresent(Color.self, forKey: .outlineColor) ?? defaults.outlineColor,
            outlineWidth: try container.decodeIfPresent(Double.self, forKey: .outlineWidth) ?? defaults.outlineWidth,
            position: try container.decodeIfPresent(Position.self, forKey: .position) ?? defaults.position,
            margin: try container.decodeIfPresent(Double.self, forKey: .margin) ?? defaults.margin)
    }

    /// The first problem of this style, or nil: an empty family or one with `,` or `=` (libass's override syntax
    /// cannot hold them), a size that is not finite and above 0, an outline width or margin below 0 or not finite,
    /// a colour component outside 0...1.
    public var problem: String? {
        if fontFamily.isEmpty || fontFamily.contains(",") || fontFamily.contains("=") {
            return "fontFamily '\(fontFamily)' must be a non-empty name without ',' or '='"
        }
        if !fontSize.isFinite || fontSize <= 0 { return "fontSize \(fontSize) must be above 0 pixels" }
        if !outlineWidth.isFinite || outlineWidth < 0 { return "outlineWidth \(outlineWidth) must be 0 pixels or more" }
        if !margin.isFinite || margin < 0 { return "margin \(margin) must be 0 pixels or more" }
        for (name, color) in [("color", color), ("outlineColor", outlineColor)] {
            let components = [color.red, color.green, color.blue, color.alpha]
            if !components.allSatisfy({ $0.isFinite && (0...1).contains($0) }) {
                return "\(name) \(color.hexString) has a component outside 0...1"
            }
        }
        return nil
    }
}
