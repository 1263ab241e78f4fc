import Composition
import VideoComposition

extension ShortFormDocument {
    /// An image (`"image"`) or text (`"text"`) drawn above the clips, placed by a named position and a margin or by
    /// pixel coordinates.
    public struct Overlay: Sendable, Hashable, Codable {
        /// An image file (PNG or JPEG; alpha is kept): a path relative to the document's folder, an absolute path or
        /// a `file://` URL. Set this or ``text``.
        public var image: String?
        /// The text to draw (`\n` for a new line). Set this or ``image``.
        public var text: String?
        /// Where the overlay sits on the canvas; nil for ``Position/center``.
        public var position: Position?
        /// Distance in pixels from the canvas edges for named positions; nil for 0.
        public var margin: Double?
        /// Width in pixels; nil for the image's width (scaled with ``height`` when only that is given), or the canvas
        /// width less the margins for text.
        public var width: Double?
        /// Height in pixels; nil for the image's height (scaled with ``width`` when only that is given), or the
        /// text's lines × 1.25 × ``fontSize`` plus padding for text.
        public var height: Double?
        /// Core Animation placement instead of ``position``, ``margin``, ``width`` and ``height``: `{"position":
        /// {"x", "y"}, "bounds": {"x", "y", "width", "height"}, "anchorPoint": {"x", "y"}}` with the origin at the
        /// canvas's bottom-left corner, y up (unless `"isGeometryFlipped": true`), as a `CALayer` given to
        /// `AVVideoCompositionCoreAnimationTool` (see ``CoreAnimationGeometry``); nil to use ``position``.
        public var layer: CoreAnimationGeometry?
        /// Opacity 0…1; nil for 1.
        public var opacity: Double?
        /// When it appears (output time); nil for 0.
        public var start: MediaTime?
        /// How long it shows; nil for until the end.
        public var duration: MediaTime?
        /// Fade in over this long; nil for none.
        public var fadeIn: MediaTime?
        /// Fade out over this long, ending when the overlay ends; nil for none.
        public var fadeOut: MediaTime?
        /// Text size in pixels; nil for 48.
        public var fontSize: Double?
        /// A fontconfig family name (`"DejaVu Sans"`); nil for `sans-serif`.
        public var fontFamily: String?
        /// A font file, relative to the document's folder or absolute; nil to use ``fontFamily``.
        public var fontFile: String?
        /// Text colour (`"#RRGGBB"`, `"#RRGGBBAA"` or an object); nil for white.
        public var color: Color?
        /// A box drawn behind the text; nil for none.
        public var backgroundColor: Color?
        /// Pixels between the box's edges and the text; nil for 0.
        public var padding: Double?
        /// Line alignment in the box; nil for centred.
        public var alignment: TextLayerContent.Alignment?

        /// An overlay; set `image` or `text`.
        public init(
            image: String? = nil, text: String? = nil, position: Position? = nil, margin: Double? = nil,
            width: Double? = nil, height: Double? = nil, opacity: Double? = nil, start: MediaTime? = nil,
            duration: MediaTime? = nil, fadeIn: MediaTime? = nil, fadeOut: MediaTime? = nil, fontSize: Double? = nil,
            fontFamily: String? = nil, fontFile: String? = nil, color: Color? = nil, backgroundColor: Color? = nil,
            padding: Double? = nil, alignment: TextLayerContent.Alignment? = nil, layer: CoreAnimationGeometry? = nil
        ) {
            self.layer = layer
            self.image = image
            self.text = text
            self.position = position
            self.margin = margin
            self.width = width
            self.height = height
            self.opacity = opacity
            self.start = start
            self.duration = duration
            self.fadeIn = fadeIn
            self.fadeOut = fadeOut
            self.fontSize = fontSize
            self.fontFamily = fontFamily
            self.fontFile = fontFile
            self.color = color
            self.backgroundColor = backgroundColor
            self.padding = padding
            self.alignment = alignment
        }
    }
}

extension ShortFormDocument.Overlay {
    /// Where an overlay sits: one of nine named places (inset by the margin), or the top-left corner in pixels.
    public enum Position: Sendable, Hashable, Codable {
        /// A named place.
        case named(Anchor)
        /// The overlay's top-left corner in canvas pixels (origin top-left, y down), written `[x, y]`.
        case point(Point)

        /// The nine named places.
        public enum Anchor: String, Sendable, Hashable, Codable, CaseIterable {
            /// Top-left corner.
            case topLeft
            /// Top edge, centred.
            case top
            /// Top-right corner.
            case topRight
            /// Left edge, centred vertically.
            case left
            /// The middle of the canvas.
            case center
            /// Right edge, centred vertically.
            case right
            /// Bottom-left corner.
            case bottomLeft
            /// Bottom edge, centred.
            case bottom
            /// Bottom-right corner.
            case bottomRight
        }

        /// Decodes a name (`"bottomRight"`) or `[x, y]` pixels.
        ///
        /// - Throws: `DecodingError` for anything else, listing the names.
        public init(from decoder: any Swift.Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let pair = try? container.decode([Double].self) {
                guard pair.count == 2 else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "a position in pixels is [x, y]")
                }
                self = .point(Point(x: pair[0], y: pair[1]))
            } else {
                self = .named(try container.decode(Anchor.self))
            }
        }

        /// Encodes the name or `[x, y]`.
        public func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .named(let anchor): try container.encode(anchor)
            case .point(let point): try container.encode([point.x, point.y])
            }
        }
    }
}
