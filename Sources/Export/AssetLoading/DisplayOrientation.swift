import Composition

/// Turns FFmpeg's display matrix (or a still image's EXIF orientation) into AVFoundation's `preferredTransform`.
///
/// FFmpeg's display matrix is the QuickTime `tkhd` matrix `[a b u; c d v; x y w]` (a, b, c, d, x, y in 16.16 fixed
/// point; u, v, w in 2.30) mapping a source pixel `(p, q)` to `(a·p + c·q + x, b·p + d·q + y)` in y-down pixel
/// coordinates — the same layout and meaning as `CGAffineTransform(a, b, c, d, tx, ty)`. An iPhone portrait clip
/// stores `a = 0, b = 1, c = −1, d = 0` (FFmpeg reports "rotation −90": a quarter turn clockwise on screen).
enum DisplayOrientation {
    /// The preferred transform for a picture of `size` pixels (square-pixel size) under `matrix` (9 values, as in
    /// the side data).
    ///
    /// Only the rotation/mirroring part of the matrix is kept: each column `(a, b)` and `(c, d)` is normalised to
    /// unit length (scaling is the job of the pixel aspect ratio, which libavformat already derives from a scaling
    /// matrix) and components within 1/65536 of 0 or ±1 snap to the exact value, so quarter turns are exact. The
    /// translation is not taken from the file: it is recomputed so that the transformed picture's bounding box starts
    /// at (0, 0) — what Apple devices write (an iPhone 4S portrait clip's matrix has `tx = 320` for a 568 × 320 frame) and what an editor
    /// needs; files from other writers often leave it 0, which would move the picture off the canvas.
    /// A degenerate matrix (a zero column) gives the identity.
    static func preferredTransform(displayMatrix matrix: [Int32], size: Size) -> AffineTransform2D {
        guard matrix.count >= 9 else { return .identity }
        let raw = [matrix[0], matrix[1], matrix[3], matrix[4]].map { Double($0) / 65536 }
        let firstLength = (raw[0] * raw[0] + raw[1] * raw[1]).squareRoot()
        let secondLength = (raw[2] * raw[2] + raw[3] * raw[3]).squareRoot()
        guard firstLength > 0, secondLength > 0, firstLength.isFinite, secondLength.isFinite else { return .identity }
        let a = snap(raw[0] / firstLength), b = snap(raw[1] / firstLength)
        let c = snap(raw[2] / secondLength), d = snap(raw[3] / secondLength)
        guard a * d - b * c != 0 else { return .identity }
        return anchored(AffineTransform2D(a: a, b: b, c: c, d: d, tx: 0, ty: 0), size: size)
    }

    /// The preferred transform for EXIF orientation `orientation` (1…8, TIFF tag 0x0112) of a picture of `size`
    /// pixels, or nil for a value outside 1…8.
    ///
    /// The EXIF meaning of each value (which visual side the stored 0th row and 0th column are): 1 top/left
    /// (identity), 2 top/right (mirror horizontally), 3 bottom/right (rotate 180°), 4 bottom/left (mirror
    /// vertically), 5 left/top (transpose), 6 right/top (rotate 90° clockwise), 7 right/bottom (transverse),
    /// 8 left/bottom (rotate 90° counter-clockwise).
    static func preferredTransform(exifOrientation orientation: Int, size: Size) -> AffineTransform2D? {
        let linear: (a: Double, b: Double, c: Double, d: Double)
        switch orientation {
        case 1: linear = (1, 0, 0, 1)
        case 2: linear = (-1, 0, 0, 1)
        case 3: linear = (-1, 0, 0, -1)
        case 4: linear = (1, 0, 0, -1)
        case 5: linear = (0, 1, 1, 0)
        case 6: linear = (0, 1, -1, 0)
        case 7: linear = (0, -1, -1, 0)
        case 8: linear = (0, -1, 1, 0)
        default: return nil
        }
        return anchored(AffineTransform2D(a: linear.a, b: linear.b, c: linear.c, d: linear.d, tx: 0, ty: 0), size: size)
    }

    /// `transform` with the translation that puts the image of `(0, 0, width, height)` at the origin.
    private static func anchored(_ transform: AffineTransform2D, size: Size) -> AffineTransform2D {
        let box = transform.apply(to: size.bounds)
        var result = transform
        result.tx = box.minX == 0 ? 0 : -box.minX
        result.ty = box.minY == 0 ? 0 : -box.minY
        return result
    }

    private static func snap(_ value: Double) -> Double {
        for exact in [0.0, 1.0, -1.0] where abs(value - exact) < 1.0 / 65536 { return exact }
        return value
    }
}
