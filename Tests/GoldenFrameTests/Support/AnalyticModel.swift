import Foundation
import Splice
import Testing

/// What a picture shows at a point of its own pixel space (x right, y down, in pixels), or nil where it is
/// transparent or outside it.
typealias Picture = @Sendable (Point) -> RGB?

enum Pictures {
    /// The `SyntheticSource.quadrants()` picture of `size`: red top-left, green top-right, blue bottom-left, white
    /// bottom-right.
    static func quadrants(_ size: Size) -> Picture {
        let w = Double(size.width), h = Double(size.height)
        return { p in
            guard p.x >= 0, p.y >= 0, p.x < w, p.y < h else { return nil }
            switch (p.x < w / 2, p.y < h / 2) {
            case (true, true): return .red
            case (false, true): return .green
            case (true, false): return .blue
            case (false, false): return .white
            }
        }
    }

    /// One colour over `size`.
    static func solid(_ colour: RGB, _ size: Size) -> Picture {
        let w = Double(size.width), h = Double(size.height)
        return { p in p.x >= 0 && p.y >= 0 && p.x < w && p.y < h ? colour : nil }
    }

    /// `picture` limited to `rect` (its own pixels), as a layer crop.
    static func cropped(_ picture: @escaping Picture, to rect: Rect) -> Picture {
        { p in p.x >= rect.minX && p.y >= rect.minY && p.x < rect.maxX && p.y < rect.maxY ? picture(p) : nil }
    }
}

/// One layer of the analytic model: a picture drawn through a transform (its pixels → canvas pixels) at an opacity —
/// the composition model's own values (`transform(at:)`, `opacity(at:)`, `cropRectangle(at:)`, overlay frames).
struct ModelLayer {
    var picture: Picture
    var transform: AffineTransform2D
    var opacity: Double = 1
}

/// The analytic picture of a canvas: layers (top-most first) over a background, blended `α·layer + (1 − α)·below`.
struct AnalyticCanvas {
    var size: Size
    var background: RGB
    var layers: [ModelLayer]

    /// The colour the model gives at canvas point `p`.
    func colour(at p: Point) -> RGB {
        var result = background
        for layer in layers.reversed() {
            guard let inverse = layer.transform.inverted(), let colour = layer.picture(inverse.apply(to: p)) else { continue }
            result = colour.over(result, alpha: layer.opacity)
        }
        return result
    }

    /// 16 unit directions.
    static let ring: [Point] = (0..<16).map { Point(x: cos(Double($0) * .pi / 8), y: sin(Double($0) * .pi / 8)) }

    /// Compares `frame` with the model at a grid of pixel centres (every `step` pixels) whose colour the model says
    /// is the same at every point within `margin` pixels around them (sampled on two rings of 16 points) (so edges, where resampling blends, are left out), within
    /// `tolerance` per channel. Returns how many pixels were checked per expected colour.
    @discardableResult
    func expectMatches(
        _ frame: VideoFrame, step: Int = 7, margin: Double = 6, tolerance: Double = 3, minimumChecked: Int = 100,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String: Int] {
        #expect(frame.width == size.width && frame.height == size.height, "frame \(frame.width)x\(frame.height), model \(size)",
                sourceLocation: sourceLocation)
        var checked: [String: Int] = [:]
        var failures: [String] = []
        for y in stride(from: step / 2, to: size.height, by: step) {
            for x in stride(from: step / 2, to: size.width, by: step) {
                let centre = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let expected = colour(at: centre)
                let neighbours = Self.ring.flatMap { direction in
                    [margin, margin / 2].map { radius in
                        colour(at: Point(x: centre.x + direction.x * radius, y: centre.y + direction.y * radius))
                    }
                }
                guard neighbours.allSatisfy({ $0 == expected }), let actual = frame.rgb(x, y) else { continue }
                checked[expected.description, default: 0] += 1
                if abs(actual.red - expected.red) > tolerance || abs(actual.green - expected.green) > tolerance
                    || abs(actual.blue - expected.blue) > tolerance {
                    failures.append("(\(x), \(y)) is \(actual), model \(expected)")
                }
            }
        }
        let total = checked.values.reduce(0, +)
        #expect(total >= minimumChecked, "only \(total) pixels were far enough from edges to check", sourceLocation: sourceLocation)
        let summary = failures.prefix(8).joined(separator: "; ")
        #expect(failures.count == 0, "\(failures.count) of \(total) pixels differ from the model beyond ±\(tolerance): \(summary)",
                sourceLocation: sourceLocation)
        return checked
    }
}
