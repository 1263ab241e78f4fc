extension MediaTime {
    /// `self + other` when both are numeric and the exact sum can be represented (an `Int64` value over a positive
    /// `Int32` timescale); nil otherwise. Unlike `+`, this never rounds: the editing model uses it so that every
    /// segment boundary is the exact rational it should be, and reports a typed error instead of rounding.
    ///
    /// The result is expressed in the least common multiple of the two timescales when that fits (so NTSC times
    /// stay in 30000ths), else in the reduced fraction's timescale.
    func adding(exactly other: MediaTime) -> MediaTime? {
        guard isNumeric, other.isNumeric else { return nil }
        if timescale == other.timescale {
            // The common case on an edited timeline (every boundary in one timescale): no fraction work.
            let (sum, overflow) = value.addingReportingOverflow(other.value)
            if !overflow { return MediaTime(kind: .numeric, value: sum, timescale: timescale) }
        }
        let ta = Int128(timescale), tb = Int128(other.timescale)
        let numerator = Int128(value) * tb + Int128(other.value) * ta
        let lcm = ta / MediaTime.gcd(ta, tb) * tb
        return MediaTime.exact(numerator: numerator, denominator: ta * tb, preferredTimescale: lcm)
    }

    /// `self − other` exactly, or nil; see ``adding(exactly:)``.
    func subtracting(exactly other: MediaTime) -> MediaTime? {
        guard other.isNumeric, other.value != Int64.min else { return nil }
        return adding(exactly: MediaTime(kind: .numeric, value: -other.value, timescale: other.timescale))
    }

    /// `self × numerator / denominator` exactly (all three numeric, `denominator` non-zero), or nil when the product
    /// overflows 128-bit intermediates or the result cannot be represented. Used to map a duration through a
    /// speed change (`offset × source.duration / target.duration`).
    func multiplied(exactlyBy numerator: MediaTime, over denominator: MediaTime) -> MediaTime? {
        guard isNumeric, numerator.isNumeric, denominator.isNumeric, denominator.value != 0 else { return nil }
        // (v / t) × (nv / nt) / (dv / dt) = (v · nv · dt) / (t · nt · dv)
        guard let top = MediaTime.product(Int128(value), Int128(numerator.value), Int128(denominator.timescale)),
              let bottom = MediaTime.product(Int128(timescale), Int128(numerator.timescale), Int128(denominator.value))
        else { return nil }
        return MediaTime.exact(numerator: top, denominator: bottom, preferredTimescale: Int128(timescale))
    }

    /// The product of three 128-bit integers, or nil on overflow.
    private static func product(_ a: Int128, _ b: Int128, _ c: Int128) -> Int128? {
        let (ab, overflow1) = a.multipliedReportingOverflow(by: b)
        guard !overflow1 else { return nil }
        let (abc, overflow2) = ab.multipliedReportingOverflow(by: c)
        return overflow2 ? nil : abc
    }

    /// The time `numerator / denominator` seconds, exactly, or nil when no `Int64` value over a positive `Int32`
    /// timescale holds it. Prefers `preferredTimescale` when the reduced denominator divides it.
    static func exact(numerator: Int128, denominator: Int128, preferredTimescale: Int128) -> MediaTime? {
        guard denominator != 0 else { return nil }
        var n = numerator, d = denominator
        if d < 0 {
            guard n != Int128.min, d != Int128.min else { return nil }
            n = -n
            d = -d
        }
        let divisor = gcd(n, d)
        n /= divisor
        d /= divisor
        if preferredTimescale > 0, preferredTimescale <= Int128(Int32.max), preferredTimescale % d == 0 {
            let (scaled, overflow) = n.multipliedReportingOverflow(by: preferredTimescale / d)
            if !overflow, let value = Int64(exactly: scaled) {
                return MediaTime(kind: .numeric, value: value, timescale: Int32(preferredTimescale))
            }
        }
        guard d <= Int128(Int32.max), let value = Int64(exactly: n) else { return nil }
        return MediaTime(kind: .numeric, value: value, timescale: Int32(d))
    }
}
