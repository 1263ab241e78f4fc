/// An RGBA colour with components in 0...1 (sRGB, straight — not premultiplied — alpha), for backgrounds, text and
/// text boxes.
///
/// Codable as `{"red": 1, "green": 0, "blue": 0, "alpha": 1}`; decoding also accepts a hex string `"#RRGGBB"` or
/// `"#RRGGBBAA"`, which is easier to write by hand.
public struct Color: Sendable, Hashable {
    /// Red intensity, 0...1.
    public var red: Double
    /// Green intensity, 0...1.
    public var green: Double
    /// Blue intensity, 0...1.
    public var blue: Double
    /// Opacity, 0 (transparent) ... 1 (opaque).
    public var alpha: Double

    /// A colour from components in 0...1. Components are stored as given; validation reports values outside
    /// 0...1 (``ValidationIssue/Kind/invalidColor``) rather than clamping them.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The colour written `#RRGGBB` or `#RRGGBBAA` (hex digits, either case; the `#` may be left out); each 8-bit
    /// component `n` becomes `n / 255`. Nil for any other text.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let packed = UInt32(digits, radix: 16)
        else { return nil }
        let rgba = digits.count == 8 ? packed : packed << 8 | 0xFF
        func component(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xFF) / 255 }
        self.init(red: component(24), green: component(16), blue: component(8), alpha: component(0))
    }

    /// Opaque black, the default background (as AVFoundation's).
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Fully transparent black.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque red (1, 0, 0), as `UIColor.red` / `NSColor.red`.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque green (0, 1, 0), as `UIColor.green`.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque blue (0, 0, 1), as `UIColor.blue`.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Opaque yellow (1, 1, 0), as `UIColor.yellow`.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// Opaque cyan (0, 1, 1), as `UIColor.cyan`.
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    /// Opaque magenta (1, 0, 1), as `UIColor.magenta`.
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    /// Opaque orange (1, 0.5, 0), as `UIColor.orange`.
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    /// Opaque purple (0.5, 0, 0.5), as `UIColor.purple`.
    public static let purple = Color(red: 0.5, green: 0, blue: 0.5)
    /// Opaque brown (0.6, 0.4, 0.2), as `UIColor.brown`.
    public static let brown = Color(red: 0.6, green: 0.4, blue: 0.2)
    /// Opaque mid grey (0.5, 0.5, 0.5), as `UIColor.gray`.
    public static let gray = Color(red: 0.5, green: 0.5, blue: 0.5)
    /// Opaque dark grey (1/3, 1/3, 1/3), as `UIColor.darkGray`.
    public static let darkGray = Color(red: 1.0 / 3, green: 1.0 / 3, blue: 1.0 / 3)
    /// Opaque light grey (2/3, 2/3, 2/3), as `UIColor.lightGray`.
    public static let lightGray = Color(red: 2.0 / 3, green: 2.0 / 3, blue: 2.0 / 3)

    /// The colour `white` (0...1) with `alpha`, as `UIColor(white:alpha:)`: e.g. `Color(white: 0, alpha: 0.5)` for
    /// half-transparent black.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// True when every component is a finite number in 0...1.
    public var isValid: Bool {
        [red, green, blue, alpha].allSatisfy { (0...1).contains($0) }
    }

    /// `#RRGGBBAA` with each component rounded to the nearest of 256 levels (`round(c × 255)`); for display and
    /// for FFmpeg colour options. Components outside 0...1 are shown clamped here only.
    public var hexString: String {
        let bytes = [red, green, blue, alpha].map { value -> Int in
            value.isFinite ? Int((min(max(value, 0), 1) * 255).rounded()) : 0
        }
        return "#" + bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}

extension Color: Codable {
    private enum CodingKeys: String, CodingKey {
        case red, green, blue, alpha
    }

    /// Decodes `{"red", "green", "blue", "alpha"}` (alpha may be left out: 1) or a hex string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming a string that is not `#RRGGBB` / `#RRGGBBAA`.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer(), let text = try? container.decode(String.self) {
            guard let color = Color(hex: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not a colour: expected \"#RRGGBB\" or \"#RRGGBBAA\"")
            }
            self = color
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            red: try container.decode(Double.self, forKey: .red), green: try container.decode(Double.self, forKey: .green),
            blue: try container.decode(Double.self, forKey: .blue),
            alpha: try container.decodeIfPresent(Double.self, forKey: .alpha) ?? 1)
    }

    /// Encodes the four components exactly, as an object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(red, forKey: .red)
        try container.encode(green, forKey: .green)
        try container.encode(blue, forKey: .blue)
        try container.encode(alpha, forKey: .alpha)
    }
}
