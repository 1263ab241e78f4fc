extension MediaTime: Comparable, Hashable {
    /// Exact equality of the rational values, whatever the timescales (`1/2 == 15/30`), as `CMTimeCompare == 0`.
    /// Special values equal only themselves. ``hasBeenRounded`` is ignored.
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// The total order `−∞ < numeric < indefinite < +∞ < invalid`; numeric times are compared exactly by
    /// cross-multiplication in 128-bit integers.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Hashes the reduced fraction, so that equal times hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        guard kind == .numeric else { return }
        let divisor = MediaTime.gcd(Int128(value), Int128(timescale))
        hasher.combine(Int128(value) / divisor)
        hasher.combine(Int128(timescale) / divisor)
    }

    /// −1, 0 or +1, as `CMTimeCompare`.
    public static func compare(_ lhs: MediaTime, _ rhs: MediaTime) -> Int {
        if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue ? -1 : 1 }
        guard lhs.kind == .numeric else { return 0 }
        let left = Int128(lhs.value) * Int128(rhs.timescale)
        let right = Int128(rhs.value) * Int128(lhs.timescale)
        return left == right ? 0 : (left < right ? -1 : 1)
    }
}
