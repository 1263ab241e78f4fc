/// A rational number `numerator / denominator` over 128-bit integers, always reduced with a positive denominator:
/// the arithmetic behind ``SpeedRamp``'s exact integral. Every operation returns nil instead of overflowing, so a
/// caller can refuse (or fall back) rather than silently round.
struct ExactFraction: Hashable, Sendable {
    let numerator: Int128
    let denominator: Int128

    /// `numerator / denominator` reduced; nil for a zero denominator.
    init?(_ numerator: Int128, _ denominator: Int128) {
        guard denominator != 0, numerator != Int128.min, denominator != Int128.min else { return nil }
        let sign: Int128 = denominator < 0 ? -1 : 1
        let divisor = Swift.max(1, MediaTime.gcd(numerator, denominator))
        self.numerator = sign * numerator / divisor
        self.denominator = sign * denominator / divisor
    }

    /// The integer `value`.
    init(_ value: Int128) {
        numerator = value
        denominator = 1
    }

    /// The exact value of a numeric time in seconds; nil for a non-numeric one.
    init?(_ time: MediaTime) {
        guard time.isNumeric else { return nil }
        self.init(Int128(time.value), Int128(time.timescale))
    }

    static let zero = ExactFraction(0)

    func adding(_ other: ExactFraction) -> ExactFraction? {
        let (a, o1) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (b, o2) = other.numerator.multipliedReportingOverflow(by: denominator)
        let (d, o3) = denominator.multipliedReportingOverflow(by: other.denominator)
        guard !o1, !o2, !o3 else { return nil }
        let (n, o4) = a.addingReportingOverflow(b)
        return o4 ? nil : ExactFraction(n, d)
    }

    func subtracting(_ other: ExactFraction) -> ExactFraction? {
        adding(ExactFraction(-other.numerator, other.denominator) ?? .zero)
    }

    func multiplied(by other: ExactFraction) -> ExactFraction? {
        // Cross-reduce first to keep the intermediates small.
        let g1 = Swift.max(1, MediaTime.gcd(numerator, other.denominator))
        let g2 = Swift.max(1, MediaTime.gcd(other.numerator, denominator))
        let (n, o1) = (numerator / g1).multipliedReportingOverflow(by: other.numerator / g2)
        let (d, o2) = (denominator / g2).multipliedReportingOverflow(by: other.denominator / g1)
        return o1 || o2 ? nil : ExactFraction(n, d)
    }

    func divided(by other: ExactFraction) -> ExactFraction? {
        guard other.numerator != 0, let inverse = ExactFraction(other.denominator, other.numerator) else { return nil }
        return multiplied(by: inverse)
    }

    /// The time this many seconds: exact when the reduced denominator fits a timescale (preferring
    /// `preferredTimescale` when it is a multiple of it), otherwise rounded toward −∞ at `preferredTimescale` —
    /// toward the earlier picture, so a sample-and-hold lookup never shows a frame before its time.
    func time(preferredTimescale: Int32) -> MediaTime? {
        if let exact = MediaTime.exact(
            numerator: numerator, denominator: denominator, preferredTimescale: Int128(preferredTimescale)) {
            return exact
        }
        let (scaled, overflow) = numerator.multipliedReportingOverflow(by: Int128(preferredTimescale))
        guard !overflow else { return nil }
        let (quotient, _) = MediaTime.divide(scaled, denominator, .towardNegativeInfinity)
        guard let value = Int64(exactly: quotient) else { return nil }
        return MediaTime(value: value, timescale: preferredTimescale).markedRounded()
    }
}
