import Foundation

/// A 2-D affine transform in CGAffineTransform's convention: it maps a point `(x, y)` to
/// `(a·x + c·y + tx, b·x + d·y + ty)`.
///
/// Coordinates are pixels with the origin at the top-left and y pointing down (the render canvas's convention, and
/// the one AVFoundation uses for `preferredTransform` and layer-instruction transforms). In these coordinates a
/// positive rotation angle turns the picture clockwise on screen.
///
/// Named `AffineTransform2D` rather than `AffineTransform` because Foundation already exports an `AffineTransform`
/// and a file importing both would not compile.
public struct AffineTransform2D: Sendable, Hashable, Codable {
    /// x scale / rotation component (CGAffineTransform's `a`).
    public var a: Double
    /// y shear / rotation component (`b`).
    public var b: Double
    /// x shear / rotation component (`c`).
    public var c: Double
    /// y scale / rotation component (`d`).
    public var d: Double
    /// x translation in pixels (`tx`).
    public var tx: Double
    /// y translation in pixels (`ty`).
    public var ty: Double

    /// The transform with the given components.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The identity transform.
    public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by `(x, y)` pixels, as `CGAffineTransform(translationX:y:)`.
    public init(translationX x: Double, y: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale by `sx`, `sy` (unitless factors) about the origin, as `CGAffineTransform(scaleX:y:)`.
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians about the origin, as `CGAffineTransform(rotationAngle:)`
    /// (clockwise on screen in y-down coordinates). Exact multiples of π/2 produce exact 0/±1 components.
    public init(rotationAngle angle: Double) {
        let quarterTurns = angle / (Double.pi / 2)
        let (cosine, sine): (Double, Double)
        if quarterTurns == quarterTurns.rounded() {
            switch ((Int(quarterTurns) % 4) + 4) % 4 {
            case 0: (cosine, sine) = (1, 0)
            case 1: (cosine, sine) = (0, 1)
            case 2: (cosine, sine) = (-1, 0)
            default: (cosine, sine) = (0, -1)
            }
        } else {
            (cosine, sine) = (cos(angle), sin(angle))
        }
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// True when this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// The transform that applies `self` first and then `other`, as `CGAffineTransform.concatenating(_:)`.
    public func concatenating(_ other: AffineTransform2D) -> AffineTransform2D {
        AffineTransform2D(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// The determinant `a·d − b·c`; zero for a singular (non-invertible) transform.
    public var determinant: Double { a * d - b * c }

    /// The inverse transform, or nil when the transform is singular (determinant 0). CGAffineTransform returns the
    /// input unchanged in that case; Splice makes the caller decide.
    public func inverted() -> AffineTransform2D? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform2D(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// The image of `point` (pixels).
    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// The axis-aligned bounding box of the image of `rect` (pixels), as `CGRect.applying(_:)`.
    public func apply(to rect: Rect) -> Rect {
        let corners = [
            apply(to: Point(x: rect.minX, y: rect.minY)), apply(to: Point(x: rect.maxX, y: rect.minY)),
            apply(to: Point(x: rect.minX, y: rect.maxY)), apply(to: Point(x: rect.maxX, y: rect.maxY)),
        ]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }

    /// True when the components are finite numbers.
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }
}
