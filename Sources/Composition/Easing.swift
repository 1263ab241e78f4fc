/// How an animated value travels from one key value to the next, shared by every keyframed parameter in Splice
/// (layer transform, opacity and crop, overlay animations, audio volume).
///
/// AVFoundation's ramps are always ``linear``; the other curves go beyond it. The eased curves are the quadratic
/// curves of Robert Penner's easing equations (chosen because their values are exact and easy to check by hand):
///
/// | easing | progress `p(f)` for the fraction `f` of the ramp elapsed (0 ≤ f ≤ 1) |
/// |---|---|
/// | ``linear`` | `f` |
/// | ``easeIn`` | `f²` (starts slowly) |
/// | ``easeOut`` | `f·(2 − f)` (ends slowly) |
/// | ``easeInOut`` | `2f²` for `f < ½`, else `1 − 2(1 − f)²` |
/// | ``hold`` | `0`: the start value holds for the whole ramp and the end value applies from the ramp's end |
///
/// The value at fraction `f` is `start + (end − start) × p(f)`.
public enum Easing: String, Sendable, Hashable, Codable, CaseIterable {
    /// Constant speed, as AVFoundation's ramps.
    case linear
    /// Quadratic ease-in: slow start, `p(f) = f²`.
    case easeIn
    /// Quadratic ease-out: slow end, `p(f) = f·(2 − f)`.
    case easeOut
    /// Quadratic ease-in-out: slow start and end, symmetric about `f = ½`.
    case easeInOut
    /// A step: the start value holds until the ramp's end, where the end value takes over.
    case hold

    /// The progress `p(f)` (0 ≤ p ≤ 1) of the curve after the fraction `f` (0 ≤ f ≤ 1) of the ramp's duration.
    ///
    /// - Parameter fraction: elapsed time over the ramp's duration, in 0...1. Values outside are not clamped
    ///   (the callers in Splice only pass fractions in `0 ..< 1`).
    /// - Returns: the share of the value change reached, exactly 0 at `f = 0` for every curve.
    public func progress(_ fraction: Double) -> Double {
        switch self {
        case .linear: return fraction
        case .easeIn: return fraction * fraction
        case .easeOut: return fraction * (2 - fraction)
        case .easeInOut:
            if fraction < 0.5 { return 2 * fraction * fraction }
            let rest = 1 - fraction
            return 1 - 2 * rest * rest
        case .hold: return 0
        }
    }
}
