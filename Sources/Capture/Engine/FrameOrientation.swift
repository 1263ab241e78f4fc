/// A connection's orientation and mirroring as the engine applies them: as filters that turn the pixels (stills and
/// data-output frames) or as a display matrix (movie files, no pixel work).
///
/// Mirroring flips the picture left to right after the turn, as AVFoundation's `isVideoMirrored` flips the
/// oriented picture.
struct FrameOrientation: Sendable, Hashable {
    var orientation: CaptureVideoOrientation
    var isMirrored: Bool

    /// No turn, no mirror.
    static let identity = FrameOrientation(orientation: .landscapeRight, isMirrored: false)

    /// True when the picture's width and height swap.
    var swapsSize: Bool { orientation.clockwiseQuarterTurns % 2 == 1 }

    /// The filters (FFmpeg `-vf` syntax, comma-separated; empty for none) that turn and mirror the pixels.
    var filterChain: String {
        var filters: [String] = []
        switch orientation.clockwiseQuarterTurns {
        case 1: filters.append("transpose=clock")
        case 2: filters.append(contentsOf: ["hflip", "vflip"])
        case 3: filters.append("transpose=cclock")
        default: break
        }
        if isMirrored { filters.append("hflip") }
        return filters.joined(separator: ",")
    }

    /// The linear part (a, b, c, d) mapping a stored pixel (p, q) to (a·p + c·q, b·p + d·q) on display (y down).
    var linear: (a: Int32, b: Int32, c: Int32, d: Int32) {
        var (a, b, c, d): (Int32, Int32, Int32, Int32)
        switch orientation.clockwiseQuarterTurns {
        case 1: (a, b, c, d) = (0, 1, -1, 0)
        case 2: (a, b, c, d) = (-1, 0, 0, -1)
        case 3: (a, b, c, d) = (0, -1, 1, 0)
        default: (a, b, c, d) = (1, 0, 0, 1)
        }
        if isMirrored { a = -a; c = -c }
        return (a, b, c, d)
    }

    /// The QuickTime `tkhd` display matrix for a `width` × `height` picture (9 values: a, b, c, d, x, y in 16.16
    /// fixed point, u, v, w in 2.30), with the translation that keeps the shown picture at the origin (what Apple
    /// devices write), as FFmpeg's `AV_PKT_DATA_DISPLAYMATRIX` side data holds it.
    func displayMatrix(width: Int, height: Int) -> [Int32] {
        let (a, b, c, d) = linear
        // The corners' smallest x and y after the linear map; the translation moves them to 0.
        let xs = [0, Int(a) * width, Int(c) * height, Int(a) * width + Int(c) * height]
        let ys = [0, Int(b) * width, Int(d) * height, Int(b) * width + Int(d) * height]
        let tx = -(xs.min() ?? 0), ty = -(ys.min() ?? 0)
        return [a << 16, b << 16, 0, c << 16, d << 16, 0, Int32(tx) << 16, Int32(ty) << 16, 1 << 30]
    }
}
