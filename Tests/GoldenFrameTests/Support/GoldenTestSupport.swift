import Foundation
import Splice
import SpliceTesting
import SpliceTestSupport
import Testing

/// An 8-bit RGB colour for expectations.
struct RGB: Equatable, CustomStringConvertible {
    var red: Double
    var green: Double
    var blue: Double

    init(_ red: Double, _ green: Double, _ blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    static let black = RGB(0, 0, 0)
    static let red = RGB(255, 0, 0)
    static let green = RGB(0, 255, 0)
    static let blue = RGB(0, 0, 255)
    static let white = RGB(255, 255, 255)

    /// `a·self + (1 − a)·other`.
    func over(_ other: RGB, alpha: Double) -> RGB {
        RGB(red * alpha + other.red * (1 - alpha), green * alpha + other.green * (1 - alpha), blue * alpha + other.blue * (1 - alpha))
    }

    var description: String { "(\(fmt(red)), \(fmt(green)), \(fmt(blue)))" }
    private func fmt(_ v: Double) -> String { String(format: "%.1f", v) }
}

extension VideoFrame {
    /// The pixel at (x, y) as RGB, or nil outside.
    func rgb(_ x: Int, _ y: Int) -> RGB? {
        guard let p = pixel(x: x, y: y) else { return nil }
        return RGB(Double(p.red), Double(p.green), Double(p.blue))
    }
}

/// Expects the pixel at (x, y) within `tolerance` of `expected` on each of R, G, B.
func expectPixel(
    _ frame: VideoFrame, _ x: Int, _ y: Int, _ expected: RGB, tolerance: Double = 3, _ note: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let actual = frame.rgb(x, y) else {
        Issue.record("pixel (\(x), \(y)) lies outside the \(frame.width)x\(frame.height) frame \(note)", sourceLocation: sourceLocation)
        return
    }
    let ok = abs(actual.red - expected.red) <= tolerance && abs(actual.green - expected.green) <= tolerance
        && abs(actual.blue - expected.blue) <= tolerance
    #expect(ok, "pixel (\(x), \(y)) is \(actual), expected \(expected) ± \(tolerance) \(note)", sourceLocation: sourceLocation)
}
