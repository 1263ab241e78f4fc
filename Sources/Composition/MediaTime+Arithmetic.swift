extension MediaTime {
    /// How a time is rounded when it must be expressed in a timescale that cannot hold it exactly
    /// (the rounding methods of `CMTimeRoundingMethod`).
    public enum RoundingMethod: String, Sendable, Hashable, Codable, CaseIterable {
        /// To the nearest value; a tie (exactly .5) goes away from zero. The default everywhere.
        case halfAwayFromZero
        /// Toward zero (truncation).
        case towardZero
        /// Away from zero.
        case awayFromZero
        /// Toward +∞ (ceiling).
        case towardPositiveInfinity
        /// Toward −∞ (floor).
        case towardNegativeInfinity
    }

    /// This time expressed in `newTimescale`, as `CMTimeConvertScale`.
    ///
    /// The result always has timescale `newTimescale`. When `value × newTimescale / timescale` is not an integer it
    /// is rounded with `method` and the result is marked ``hasBeenRounded``. Special values are returned unchanged.
    /// A `newTimescale` ≤ 0 gives ``invalid``; a value beyond `Int64` gives the infinity of its sign, marked rounded.
    ///
    /// - Parameters:
    ///   - newTimescale: units per second of the result.
    ///   - method: the rounding rule; half away from zero by default.
    public func convertScale(_ newTimescale: Int32, method: RoundingMethod = .halfAwayFromZero) -> MediaTime {
        guard newTimescale > 0 else { return .invalid }
        guard kind == .numeric else { return self }
        return MediaTime.rational(
            numerator: Int128(value), denominator: Int128(timescale),
            inTimescale: newTimescale, method: method, alreadyRounded: hasBeenRounded)
    }

    /// The sum of two times, as `CMTimeAdd`.
    ///
    /// Exact when the sum fits in the least common multiple of the two timescales (the result then has that
    /// timescale) or, failing that, in the timescale of the reduced fraction. Otherwise it is rounded half away from
    /// zero to the larger of the two timescales and marked ``hasBeenRounded``. Special values: ``invalid`` absorbs
    /// everything; `+∞ + −∞` is ``invalid``; an infinity absorbs ``indefinite`` and numeric times;
    /// ``indefinite`` absorbs numeric times.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        if let special = specialSum(lhs.kind, rhs.kind) { return special }
        let ta = Int128(lhs.timescale), tb = Int128(rhs.timescale)
        let numerator = Int128(lhs.value) * tb + Int128(rhs.value) * ta
        return combine(numerator: numerator, denominator: ta * tb, lhs, rhs)
    }

    /// The difference `lhs − rhs`, as `CMTimeSubtract`; the rules of `+` apply (`+∞ − +∞` is ``invalid``).
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        // Numeric operands are subtracted directly: negating `rhs` first would overflow for a value of Int64.min.
        guard lhs.kind == .numeric, rhs.kind == .numeric else { return lhs + (-rhs) }
        let ta = Int128(lhs.timescale), tb = Int128(rhs.timescale)
        let numerator = Int128(lhs.value) * tb - Int128(rhs.value) * ta
        return combine(numerator: numerator, denominator: ta * tb, lhs, rhs)
    }

    /// The negation; infinities swap, ``indefinite`` and ``invalid`` stay.
    public static prefix func - (time: MediaTime) -> MediaTime {
        switch time.kind {
        case .positiveInfinity: return MediaTime(kind: .negativeInfinity, rounded: time.hasBeenRounded)
        case .negativeInfinity: return MediaTime(kind: .positiveInfinity, rounded: time.hasBeenRounded)
        case .indefinite, .invalid: return time
        case .numeric:
            let (negated, overflow) = Int64(0).subtractingReportingOverflow(time.value)
            if !overflow {
                return MediaTime(kind: .numeric, value: negated, timescale: time.timescale, rounded: time.hasBeenRounded)
            }
            // -Int64.min does not fit Int64: reduce the fraction if possible, else round (to +∞, marked rounded).
            return MediaTime.rational(
                numerator: -Int128(time.value), denominator: Int128(time.timescale),
                preferredTimescale: nil, fallbackTimescale: time.timescale, alreadyRounded: time.hasBeenRounded)
        }
    }

    /// The time multiplied by an integer, as `CMTimeMultiply`.
    ///
    /// Exact when `value × multiplier` fits `Int64` (same timescale). Otherwise the result is infinite with the sign
    /// of the product, marked rounded. Infinities change sign with a negative multiplier; `±∞ × 0` is ``invalid``.
    public static func * (time: MediaTime, multiplier: Int64) -> MediaTime {
        time.multiplied(byWideRatio: Int128(multiplier), over: 1)
    }

    /// Commutative form of `time * multiplier`.
    public static func * (multiplier: Int64, time: MediaTime) -> MediaTime {
        time * multiplier
    }

    /// The time multiplied by `multiplier / divisor`, as `CMTimeMultiplyByRatio` (speed changes, rate conversion).
    ///
    /// Exact when the reduced result fits a positive `Int32` timescale and an `Int64` value (the original timescale is
    /// kept when it can hold the result exactly). Otherwise the result is rounded half away from zero to the original
    /// timescale and marked ``hasBeenRounded``. A zero divisor gives ``invalid``.
    ///
    /// - Parameters:
    ///   - multiplier: numerator of the ratio.
    ///   - divisor: denominator of the ratio; must not be 0.
    public func multiplied(byRatio multiplier: Int64, over divisor: Int64) -> MediaTime {
        multiplied(byWideRatio: Int128(multiplier), over: Int128(divisor))
    }

    func multiplied(byWideRatio multiplier: Int128, over divisor: Int128) -> MediaTime {
        guard divisor != 0 else { return .invalid }
        switch kind {
        case .invalid, .indefinite: return self
        case .positiveInfinity, .negativeInfinity:
            if multiplier == 0 { return .invalid }
            let flips = (multiplier < 0) != (divisor < 0)
            return flips ? -self : self
        case .numeric:
            // Reduce the ratio; if |value × m| or timescale × d would still reach 2^94 (beyond which rescaling by an
            // Int32 timescale could overflow 128 bits), halve both factors: the result is then approximate and marked
            // rounded — never a trap, never a wrapped value.
            var (m, d) = (multiplier, divisor)
            if d < 0 { (m, d) = (-m, -d) }
            let common = MediaTime.gcd(m, d)
            if common > 1 { (m, d) = (m / common, d / common) }
            let limit = UInt128(1) << 94
            var approximated = false
            while m.magnitude > limit / UInt128(Swift.max(value.magnitude, 1)) || d.magnitude > limit / UInt128(timescale) {
                guard d > 1 else {
                    return MediaTime(kind: (value < 0) != (m < 0) ? .negativeInfinity : .positiveInfinity, rounded: true)
                }
                (m, d) = (m / 2, d / 2)
                approximated = true
            }
            return MediaTime.rational(
                numerator: Int128(value) * m, denominator: Int128(timescale) * d, preferredTimescale: timescale,
                fallbackTimescale: timescale, alreadyRounded: hasBeenRounded || approximated)
        }
    }

    // MARK: - Shared machinery

    private static func specialSum(_ a: Kind, _ b: Kind) -> MediaTime? {
        if a == .invalid || b == .invalid { return .invalid }
        let infinities = Set([a, b].filter { $0 == .positiveInfinity || $0 == .negativeInfinity })
        if infinities.count == 2 { return .invalid }
        if let infinity = infinities.first { return MediaTime(kind: infinity) }
        if a == .indefinite || b == .indefinite { return .indefinite }
        return nil
    }

    /// The sum/difference numerator and denominator of two numeric operands, put into the least common timescale
    /// when it fits, else the reduced fraction, else rounded to the larger timescale.
    private static func combine(numerator: Int128, denominator: Int128, _ lhs: MediaTime, _ rhs: MediaTime) -> MediaTime {
        let ta = Int128(lhs.timescale), tb = Int128(rhs.timescale)
        let lcm = ta / gcd(ta, tb) * tb
        let preferred: Int32? = lcm <= Int128(Int32.max) ? Int32(lcm) : nil
        return rational(
            numerator: numerator, denominator: denominator, preferredTimescale: preferred,
            fallbackTimescale: max(lhs.timescale, rhs.timescale),
            alreadyRounded: lhs.hasBeenRounded || rhs.hasBeenRounded)
    }

    /// The time `numerator / denominator` seconds (denominator > 0).
    ///
    /// Tries, in order: exact in `preferredTimescale`; exact as the reduced fraction; rounded half away from zero
    /// in `fallbackTimescale`.
    static func rational(
        numerator: Int128, denominator: Int128, preferredTimescale: Int32?, fallbackTimescale: Int32,
        alreadyRounded: Bool
    ) -> MediaTime {
        precondition(denominator > 0, "internal: rational time with non-positive denominator")
        if let preferred = preferredTimescale {
            let scaled = numerator * Int128(preferred)
            if scaled % denominator == 0, let value = Int64(exactly: scaled / denominator) {
                return MediaTime(kind: .numeric, value: value, timescale: preferred, rounded: alreadyRounded)
            }
        }
        let divisor = gcd(numerator, denominator)
        let reducedDenominator = denominator / divisor
        if reducedDenominator <= Int128(Int32.max), let value = Int64(exactly: numerator / divisor) {
            return MediaTime(kind: .numeric, value: value, timescale: Int32(reducedDenominator), rounded: alreadyRounded)
        }
        return rational(
            numerator: numerator, denominator: denominator, inTimescale: fallbackTimescale,
            method: .halfAwayFromZero, alreadyRounded: alreadyRounded)
    }

    /// The time `numerator / denominator` seconds expressed in `timescale`, rounded with `method` if inexact.
    static func rational(
        numerator: Int128, denominator: Int128, inTimescale timescale: Int32, method: RoundingMethod,
        alreadyRounded: Bool
    ) -> MediaTime {
        let scaled = numerator * Int128(timescale)
        let (quotient, inexact) = divide(scaled, denominator, method)
        guard let value = Int64(exactly: quotient) else {
            return MediaTime(kind: quotient > 0 ? .positiveInfinity : .negativeInfinity, rounded: true)
        }
        return MediaTime(kind: .numeric, value: value, timescale: timescale, rounded: alreadyRounded || inexact)
    }

    /// `n / d` (d > 0) rounded with `method`; also says whether rounding happened.
    static func divide(_ n: Int128, _ d: Int128, _ method: RoundingMethod) -> (Int128, Bool) {
        let q = n / d  // truncates toward zero
        let r = n % d  // same sign as n
        if r == 0 { return (q, false) }
        let awayFromZero = n < 0 ? q - 1 : q + 1
        switch method {
        case .towardZero:
            return (q, true)
        case .awayFromZero:
            return (awayFromZero, true)
        case .towardPositiveInfinity:
            return (n > 0 ? q + 1 : q, true)
        case .towardNegativeInfinity:
            return (n < 0 ? q - 1 : q, true)
        case .halfAwayFromZero:
            let twiceRemainder = Int128(r.magnitude) * 2
            return (twiceRemainder >= d ? awayFromZero : q, true)
        }
    }

    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        Int128(Int128.greatestCommonDivisor(a, b))
    }
}
