/// A value that can be blended linearly between two instances, so that ``Keyframes`` can ramp it.
///
/// `a.interpolated(to: b, fraction: 0)` must be `a` exactly. Keyframe evaluation never asks for fraction 1: at and
/// after a ramp's end it returns the end value itself.
public protocol Interpolatable {
    /// The value the share `fraction` of the way from `self` to `end` (0 = `self`, 1 = `end`).
    func interpolated(to end: Self, fraction: Double) -> Self
}

extension Double: Interpolatable {
    /// `self + (end − self) × fraction`: linear blending of a scalar (opacity, linear gain, pixels, radians).
    public func interpolated(to end: Double, fraction: Double) -> Double {
        fraction == 0 ? self : self + (end - self) * fraction
    }
}

extension Point: Interpolatable {
    /// Each coordinate (pixels) blended linearly.
    public func interpolated(to end: Point, fraction: Double) -> Point {
        Point(x: x.interpolated(to: end.x, fraction: fraction), y: y.interpolated(to: end.y, fraction: fraction))
    }
}

extension Rect: Interpolatable {
    /// Origin and size (pixels) blended linearly, component by component — as AVFoundation's crop rectangle ramps.
    public func interpolated(to end: Rect, fraction: Double) -> Rect {
        Rect(
            x: x.interpolated(to: end.x, fraction: fraction), y: y.interpolated(to: end.y, fraction: fraction),
            width: width.interpolated(to: end.width, fraction: fraction),
            height: height.interpolated(to: end.height, fraction: fraction))
    }
}

extension AffineTransform2D: Interpolatable {
    /// The six matrix components blended linearly, as AVFoundation's transform ramps do. A rotation ramped this way
    /// shrinks the picture mid-way (a quarter turn passes through a scale of √½); `VideoComposition` offers a
    /// decomposed interpolation for users who want rigid motion.
    public func interpolated(to end: AffineTransform2D, fraction: Double) -> AffineTransform2D {
        if fraction == 0 { return self }
        return AffineTransform2D(
            a: a.interpolated(to: end.a, fraction: fraction), b: b.interpolated(to: end.b, fraction: fraction),
            c: c.interpolated(to: end.c, fraction: fraction), d: d.interpolated(to: end.d, fraction: fraction),
            tx: tx.interpolated(to: end.tx, fraction: fraction), ty: ty.interpolated(to: end.ty, fraction: fraction))
    }
}
