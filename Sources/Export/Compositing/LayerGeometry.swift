import Composition
import Foundation

/// Which filter path draws a layer transform: the compiler picks the cheapest exact one (the README's
/// "Architecture"). Only the linear part `(a, b, c, d)` decides; the translation never changes the path.
enum LayerGeometry: Hashable {
    /// `b = c = 0`: scale (with flips) and translation — `scale`, `hflip`/`vflip`, an `overlay` position.
    case axisAligned
    /// `a = d = 0`: a multiple of 90° with scale — one `transpose`.
    case quarterTurn
    /// Rotation with scale and no shear (`a·c + b·d = 0`): `scale`, `rotate`.
    case rotation
    /// Anything else (shear): FFmpeg's `perspective` (GPL-only) on an edge-extended picture.
    case general
    /// Determinant 0 or not finite (e.g. a ramp passing through a = 0): the picture collapses onto a line or a
    /// point and covers no pixel; the layer is not drawn.
    case singular

    /// The FFmpeg filters only this path needs beyond the stock `scale`/`overlay`/`lut` ones (checked by the planner
    /// before anything is written, since an LGPL build lacks `perspective`).
    var requiredFilters: [String] {
        self == .general ? ["perspective", "fillborders", "alphaextract", "alphamerge"] : []
    }

    /// The path for `transform`.
    ///
    /// A shear is accepted as zero within 1e-9 of the scale product `sx·|sy|` (rounding of matrices built from
    /// angles), as the `rotate` path always did.
    init(_ transform: AffineTransform2D) {
        let t = transform
        guard t.a.isFinite, t.b.isFinite, t.c.isFinite, t.d.isFinite else {
            self = .singular
            return
        }
        if t.b == 0 && t.c == 0 {
            self = .axisAligned
        } else if t.a == 0 && t.d == 0 {
            self = .quarterTurn
        } else if t.determinant == 0 {
            self = .singular
        } else {
            let sx = (t.a * t.a + t.b * t.b).squareRoot()
            let sy = t.determinant / sx
            let shear = t.a * t.c + t.b * t.d
            self = abs(shear) <= 1e-9 * max(1, sx * abs(sy)) ? .rotation : .general
        }
    }
}
