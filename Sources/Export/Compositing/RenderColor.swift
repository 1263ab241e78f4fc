import Foundation

/// An sRGB colour with components in 0…1, as the renderer uses it.
struct RenderColor: Hashable, Sendable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double

    static let black = RenderColor(red: 0, green: 0, blue: 0, alpha: 1)

    /// `0xRRGGBB@alpha` as FFmpeg's colour syntax reads it.
    var ffmpegSyntax: String {
        func byte(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
        return String(format: "0x%02X%02X%02X@%.4f", byte(red), byte(green), byte(blue), min(max(alpha, 0), 1))
    }
}
