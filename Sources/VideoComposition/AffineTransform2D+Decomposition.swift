import Composition
import Foundation

extension AffineTransform2D {
    /// A transform split into parts that can be blended separately: the linear part is
    /// `rotation(θ) · [[scaleX, shear], [0, scaleY]]` (in CGAffineTransform's column convention:
    /// `a = scaleX·cos θ`, `b = scaleX·sin θ`, `c = shear·cos θ − scaleY·sin θ`, `d = shear·sin θ + scaleY·cos θ`),
    /// followed by the translation.
    public struct Decomposition: Sendable, Hashable, Codable {
        /// Scale along the rotated x axis (≥ 0).
        public var scaleX: Double
        /// Scale along the rotated y axis; negative for a mirror image.
        public var scaleY: Double
        /// Shear of y into x (0 for rotations and scales).
        public var shear: Double
        /// Rotation in radians, −π...π, clockwise on screen (y down).
        public var rotation: Double
        /// Translation in pixels.
        public var translation: Point

        /// A decomposition.
        public init(scaleX: Double, scaleY: Double, shear: Double, rotation: Double, translation: Point) {
            self.scaleX = scaleX
            self.scaleY = scaleY
            self.shear = shear
            self.rotation = rotation
            self.translation = translation
        }
    }

    /// The transform's scale, shear, rotation and translation. A transform whose first column is zero gets
    /// rotation 0.
    public var decomposition: Decomposition {
        let scaleX = (a * a + b * b).squareRoot()
        let rotation = scaleX == 0 ? 0 : atan2(b, a)
        let turn = AffineTransform2D(rotationAngle: rotation)
        let cosine = turn.a, sine = turn.b
        return Decomposition(
            scaleX: scaleX, scaleY: -c * sine + d * cosine, shear: c * cosine + d * sine, rotation: rotation,
            translation: Point(x: tx, y: ty))
    }

    /// The transform with the given parts (the inverse of ``decomposition``). Rotations by whole quarter turns are
    /// exact (see ``AffineTransform2D/init(rotationAngle:)``).
    public init(_ parts: Decomposition) {
        let turn = AffineTransform2D(rotationAngle: parts.rotation)
        let cosine = turn.a, sine = turn.b
        self.init(
            a: parts.scaleX * cosine, b: parts.scaleX * sine,
            c: parts.shear * cosine - parts.scaleY * sine, d: parts.shear * sine + parts.scaleY * cosine,
            tx: parts.translation.x, ty: parts.translation.y)
    }

    /// The transform the share `fraction` of the way from `self` to `end`, blending scale, shear and rotation
    /// separately (rotation the shorter way round; a half turn goes clockwise), so that a rotating picture does not
    /// shrink, and moving the image of `pivot` (a source pixel) in a straight line.
    ///
    /// - Parameters:
    ///   - end: the transform at fraction 1.
    ///   - fraction: 0 gives `self` exactly; 1 gives `end` up to rounding.
    ///   - pivot: the source point whose image travels linearly, in source pixels (the origin by default; the
    ///     centre of the source frame for a spin in place).
    public func interpolatedDecomposed(to end: AffineTransform2D, fraction: Double, pivot: Point = .zero) -> AffineTransform2D {
        if fraction == 0 { return self }
        let from = decomposition, to = end.decomposition
        let turn = (to.rotation - from.rotation).remainder(dividingBy: 2 * .pi)
        var linear = AffineTransform2D(Decomposition(
            scaleX: from.scaleX.interpolated(to: to.scaleX, fraction: fraction),
            scaleY: from.scaleY.interpolated(to: to.scaleY, fraction: fraction),
            shear: from.shear.interpolated(to: to.shear, fraction: fraction),
            rotation: from.rotation + turn * fraction, translation: .zero))
        let pivotImage = apply(to: pivot).interpolated(to: end.apply(to: pivot), fraction: fraction)
        let rotatedPivot = linear.apply(to: pivot)
        linear.tx = pivotImage.x - rotatedPivot.x
        linear.ty = pivotImage.y - rotatedPivot.y
        return linear
    }
}
