extension SpeedRamp {
    /// The source time elapsed (seconds, exact) after `offset` of composition time from the segment's start: the
    /// integral of the rate over `[0, offset]`, computed in rational arithmetic.
    ///
    /// Between keys `(t₀, r₀)` and `(t₁, r₁)` with `D = t₁ − t₀` and `e` the time elapsed since `t₀`, the integral
    /// is `r₀·e + (r₁ − r₀)·Q(e)` with `Q(e) = ∫₀ᵉ p(u/D) du` for the easing's progress `p`:
    ///
    /// | easing | `Q(e)` |
    /// |---|---|
    /// | linear | `e² / 2D` |
    /// | easeIn | `e³ / 3D²` |
    /// | easeOut | `e²/D − e³/3D²` |
    /// | easeInOut | `2e³/3D²` for `e < D/2`, else `e − D/2 + 2(D − e)³/3D²` |
    /// | hold | `0` |
    ///
    /// After the last key its rate holds. Rates are rounded to 1/8000 (``rateDenominator``) first.
    ///
    /// - Parameter offset: composition time since the segment's start, in `0 ... duration` (clamped into it).
    /// - Returns: the exact elapsed source time, or nil when an intermediate overflows 128 bits (times with
    ///   pathological timescales) or the ramp is not valid (``problem()``).
    func sourceElapsed(at offset: MediaTime) -> ExactFraction? {
        guard problem() == nil, var remaining = ExactFraction(Swift.min(Swift.max(offset, .zero), duration)) else {
            return nil
        }
        var total = ExactFraction.zero
        for (index, key) in keyframes.enumerated() {
            guard let r0 = ExactFraction(Int128(Self.rateUnits(key.value)), Int128(Self.rateDenominator)) else { return nil }
            let isLast = index == keyframes.count - 1
            let next = isLast ? nil : keyframes[index + 1]
            let span = next.flatMap { ExactFraction($0.time - key.time) }
            // The part of this piece that lies before `offset`.
            let elapsed: ExactFraction
            if let span, remaining.numerator * span.denominator > span.numerator * remaining.denominator {
                elapsed = span
            } else {
                elapsed = remaining
            }
            var piece = r0.multiplied(by: elapsed)
            if let next, let span,
               let r1 = ExactFraction(Int128(Self.rateUnits(next.value)), Int128(Self.rateDenominator)),
               let change = r1.subtracting(r0), change.numerator != 0 {
                let eased = Self.easedIntegral(key.easing, elapsed: elapsed, span: span)
                piece = piece.flatMap { base in eased.flatMap { change.multiplied(by: $0) }.flatMap { base.adding($0) } }
            }
            guard let piece, let sum = total.adding(piece), let rest = remaining.subtracting(elapsed) else { return nil }
            total = sum
            remaining = rest
            if remaining.numerator <= 0 { break }
        }
        return total
    }

    /// `Q(e) = ∫₀ᵉ p(u/D) du` for `easing` (see ``sourceElapsed(at:)``), exactly.
    static func easedIntegral(_ easing: Easing, elapsed e: ExactFraction, span d: ExactFraction) -> ExactFraction? {
        guard let e2 = e.multiplied(by: e), let e3 = e2.multiplied(by: e), let d2 = d.multiplied(by: d),
              let two = ExactFraction(2, 1), let three = ExactFraction(3, 1)
        else { return nil }
        let cubicOverThreeD2 = e3.divided(by: d2).flatMap { $0.divided(by: three) }  // e³ / 3D²
        switch easing {
        case .linear:
            return e2.divided(by: d).flatMap { $0.divided(by: two) }
        case .easeIn:
            return cubicOverThreeD2
        case .easeOut:
            guard let square = e2.divided(by: d), let cubic = cubicOverThreeD2 else { return nil }
            return square.subtracting(cubic)
        case .easeInOut:
            if (e.multiplied(by: two).map { $0.numerator * d.denominator < d.numerator * $0.denominator }) == true {
                return cubicOverThreeD2.flatMap { $0.multiplied(by: two) }
            }
            guard let rest = d.subtracting(e), let rest3 = rest.multiplied(by: rest).flatMap({ $0.multiplied(by: rest) }),
                  let tail = rest3.divided(by: d2).flatMap({ $0.multiplied(by: two) }).flatMap({ $0.divided(by: three) }),
                  let half = d.divided(by: two)
            else { return nil }
            return e.subtracting(half).flatMap { $0.adding(tail) }
        case .hold:
            return .zero
        }
    }

    /// The source time elapsed over the whole ramp (``duration``): the source duration the ramped segment reads.
    /// Exact; nil when it cannot be represented as a ``MediaTime`` (its reduced denominator exceeds `Int32.max`)
    /// or the ramp is not valid.
    public var sourceDuration: MediaTime? {
        guard let elapsed = sourceElapsed(at: duration) else { return nil }
        return MediaTime.exact(
            numerator: elapsed.numerator, denominator: elapsed.denominator, preferredTimescale: Int128(duration.timescale))
    }

    /// The source time elapsed after `offset` (composition seconds from the segment's start), as a ``MediaTime``:
    /// exact when representable, otherwise rounded toward −∞ to a nanosecond (so sample-and-hold never picks a later
    /// picture than the exact time would). Nil when the ramp is not valid or the arithmetic overflows.
    public func sourceOffset(at offset: MediaTime) -> MediaTime? {
        sourceElapsed(at: offset)?.time(preferredTimescale: 1_000_000_000)
    }
}
