import Foundation
import Splice

extension XfadeReference {
    /// What `xfade` draws at pixel (x, y) at progress `p` when the outgoing picture is not solid: `a(x, y)` is the
    /// outgoing picture's colour at a pixel (nil outside it), `b` the solid incoming colour. Styles that move or
    /// resample the outgoing picture (slide, pixelize, squeeze, zoom) read it where `vf_xfade.c` does; the others
    /// read it at (x, y). Written from FFmpeg 5.1's `vf_xfade.c` (progress `q = 1 − p`, `mix(a, b, m) = a·m +
    /// b·(1 − m)`, `float` arithmetic kept). Nil for a style not modelled here.
    static func colour(
        _ style: VideoTransitionStyle, x: Int, y: Int, w: Int, h: Int, p: Double, picture a: (Int, Int) -> RGB?, b: RGB
    ) -> RGB? {
        let q = Float(1 - p)
        let fw = Float(w), fh = Float(h)
        func mix(_ first: RGB, _ second: RGB, _ m: Float) -> RGB { first.over(second, alpha: Double(m)) }
        switch style {
        case .diagonalTopLeft:
            guard let here = a(x, y) else { return nil }
            return mix(b, here, smoothstep(0, 1, 1 + Float(x) / fw * Float(y) / fh - q * 2))
        case .smoothLeft:
            guard let here = a(x, y) else { return nil }
            return mix(b, here, smoothstep(0, 1, 1 + Float(x) / fw - q * 2))
        case .vertOpen:
            guard let here = a(x, y) else { return nil }
            let w2 = Float(w / 2)
            return mix(b, here, smoothstep(0, 1, 2 - abs((Float(x) - w2) / w2) - q * 2))
        case .horzClose:
            guard let here = a(x, y) else { return nil }
            let h2 = Float(h / 2)
            return mix(b, here, smoothstep(0, 1, 1 + abs((Float(y) - h2) / h2) - q * 2))
        case .radial:
            guard let here = a(x, y) else { return nil }
            let angle = atan2f(Float(x - w / 2), Float(y - h / 2)) - (q - 0.5) * (Float.pi * 2.5)
            return mix(b, here, smoothstep(0, 1, angle))
        case .horizontalLeftSlice:
            guard let here = a(x, y) else { return nil }
            let edge = smoothstep(-0.5, 0, Float(x) / fw - q * 1.5)
            let fraction = 10 * Float(x) / fw
            return mix(b, here, edge <= fraction - floorf(fraction) ? 0 : 1)
        case .slideLeft:
            let zx = Int(-q * fw) + x
            let zz = zx % w + (zx < 0 ? w : 0)
            return zx >= 0 && zx < w ? b : a(zz, y)
        case .pixelize:
            let d = min(q, 1 - q)
            let dist = ceilf(d * 50) / 50
            let square = 2 * dist * Float(min(w, h)) / 20
            let sx = dist > 0 ? min(Int((floorf(Float(x) / square) + 0.5) * square), w - 1) : x
            let sy = dist > 0 ? min(Int((floorf(Float(y) / square) + 0.5) * square), h - 1) : y
            guard let sampled = a(sx, sy) else { return nil }
            return mix(sampled, b, q)
        case .squeezeHorizontal:
            let z = 0.5 + (Float(y) / fh - 0.5) / q
            guard z >= 0, z <= 1 else { return b }
            return a(x, Int(lrintf(z * (fh - 1))))
        default:
            guard let here = a(x, y) else { return nil }
            return colour(style, x: x, y: y, w: w, h: h, p: p, a: here, b: b)
        }
    }
}
