import Foundation
import Splice

/// FFmpeg 5.1's `xfade` transitions written out independently from `vf_xfade.c`'s definitions, per pixel, for solid
/// sources A (outgoing) and B (incoming) on a `w × h` canvas: what a transition frame must show at progress `p`.
/// `xfade`'s own progress runs the other way (`q = 1 − p`, 1 = all A) and its `mix(a, b, m)` is `a·m + b·(1 − m)`;
/// the formulas keep its `float` arithmetic where a boundary depends on it.
enum XfadeReference {
    static func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        let t = min(1, max(0, (x - edge0) / (edge1 - edge0)))
        return t * t * (3 - 2 * t)
    }

    /// `xfade`'s pseudo-random threshold of pixel (x, y) for `dissolve`.
    static func frand(_ x: Int, _ y: Int) -> Float {
        let r = sinf(Float(x) * 12.9898 + Float(y) * 78.233) * 43758.545
        return r - floorf(r)
    }

    /// The colour at pixel (x, y), or nil for a style this reference does not model.
    static func colour(_ style: VideoTransitionStyle, x: Int, y: Int, w: Int, h: Int, p: Double, a: RGB, b: RGB) -> RGB? {
        let q = Float(1 - p)
        func mix(_ first: RGB, _ second: RGB, _ m: Float) -> RGB { first.over(second, alpha: Double(m)) }
        switch style {
        case .fade:
            return mix(a, b, q)
        case .fadeBlack, .fadeWhite:
            let k: RGB = style == .fadeBlack ? .black : .white
            let s1 = smoothstep(0.8, 1, q), s2 = smoothstep(0.2, 1, q)
            return mix(mix(a, k, s1), mix(k, b, s2), q)
        case .wipeLeft:
            return x > Int(Float(w) * q) ? b : a
        case .wipeRight:
            return x > Int(Float(w) * (1 - q)) ? a : b
        case .wipeUp:
            return y > Int(Float(h) * q) ? b : a
        case .wipeDown:
            return y > Int(Float(h) * (1 - q)) ? a : b
        case .wipeTopLeft:
            return x <= Int(Float(w) * q) && y <= Int(Float(h) * q) ? a : b
        case .slideLeft, .slideRight:
            let z = style == .slideLeft ? Int(-q * Float(w)) : Int(q * Float(w))
            let zx = z + x
            return zx >= 0 && zx < w ? b : a
        case .circleOpen, .circleClose:
            let zc = hypotf(Float(w / 2), Float(h / 2))
            let r = hypotf(Float(x - w / 2), Float(y - h / 2))
            if style == .circleOpen { return mix(a, b, smoothstep(0, 1, r / zc + (q - 0.5) * 3)) }
            return mix(b, a, smoothstep(0, 1, r / zc + (1 - q - 0.5) * 3))
        case .rectCrop:
            let zh = Int(abs(q - 0.5) * Float(h)), zw = Int(abs(q - 0.5) * Float(w))
            let inside = abs(x - w / 2) < zw && abs(y - h / 2) < zh
            return inside ? (q < 0.5 ? b : a) : .black
        case .dissolve:
            return frand(x, y) * 2 + q * 2 - 1.5 >= 0.5 ? a : b
        case .zoomIn:
            // On solid sources the zoom of A is A itself: only the mix remains.
            return mix(a, b, smoothstep(0, 0.5, q))
        default:
            return nil
        }
    }
}
