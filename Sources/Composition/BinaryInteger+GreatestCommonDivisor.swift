extension FixedWidthInteger {
    /// The greatest common divisor of `|a|` and `|b|` (Euclid's algorithm), as a magnitude; 0 when both are 0.
    /// The one GCD of the package: exact time arithmetic, time syntax, clocks and time bases all reduce with it.
    /// - Complexity: O(log min(|a|, |b|)).
    package static func greatestCommonDivisor(_ a: Self, _ b: Self) -> Magnitude {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
