/// A keyframed playback rate over one segment, as MLT's `timeremap` with its speed map: the rate (source seconds per
/// composition second) is set at keys and eased between them, and the source time shown at each composition time is
/// the exact integral of the rate from the segment's start.
///
/// Keys sit at offsets from the segment's composition start (``Keyframe/time`` is an offset here, 0 for the first
/// key), each with a rate (a factor: 1 = normal speed, 2 = twice as fast) and the ``Easing`` of the curve towards the
/// next key. Before the first key's offset there is nothing (the first key must be at offset 0); after the last key
/// its rate holds until ``duration``. Between keys the rate follows `r(u) = r₀ + (r₁ − r₀)·p(u)` with `p` the
/// easing's progress (quadratic curves, ``Easing``), so the integral is a cubic polynomial in the elapsed time and is
/// computed exactly in rational arithmetic (`SpeedRamp+Integral.swift`).
///
/// Rates are taken to the nearest 1/8000 (``rateDenominator``) for the integral: 1.5, 0.25, 1/32 and every rate with
/// at most three decimals are exact. Each rate must lie in `1/32 ... 32` (``CompositionTrack/speedLimit``): a ramp
/// never stops or runs backwards (use a freeze frame or a reversed segment for those).
///
/// Codable as `{"duration": "3s", "keyframes": [{"time": "0s", "value": 1}, {"time": "1s", "value": 2,
/// "easing": "easeInOut"}, …]}`.
public struct SpeedRamp: Sendable, Hashable, Codable {
    /// The segment's duration in composition time (seconds, exact): how long the ramped segment plays.
    public var duration: MediaTime
    /// The rate keys in increasing offset order; offsets in `0 ... duration`; the first at offset 0.
    public var keyframes: [Keyframe<Double>]

    /// The denominator rates are rounded to before integration: 8000 (so 1/32 = 250/8000 and three-decimal rates are
    /// exact).
    public static let rateDenominator: Int64 = 8000

    /// A ramp lasting `duration` with rate keys `keyframes`. Not checked here: ``validate()`` (called by every
    /// editing operation that inserts one) says what is wrong.
    public init(duration: MediaTime, keyframes: [Keyframe<Double>]) {
        self.duration = duration
        self.keyframes = keyframes
    }

    /// A constant `rate` for `duration`.
    public init(duration: MediaTime, rate: Double) {
        self.init(duration: duration, keyframes: [Keyframe(time: .zero, value: rate)])
    }

    /// The rate (factor) at `offset` from the segment's start, in Double for display and audio tempo control; the
    /// first key's rate before 0, the last key's after it.
    public func rate(at offset: MediaTime) -> Double {
        guard let first = keyframes.first else { return 1 }
        guard offset > first.time else { return Self.quantized(first.value) }
        for (key, next) in zip(keyframes, keyframes.dropFirst()) where offset < next.time {
            let fraction = ((offset - key.time).seconds / (next.time - key.time).seconds)
            let start = Self.quantized(key.value), end = Self.quantized(next.value)
            return start + (end - start) * key.easing.progress(fraction)
        }
        return Self.quantized(keyframes[keyframes.count - 1].value)
    }

    /// `rate` rounded to the nearest 1/``rateDenominator`` (8000): the rate the integral uses.
    public static func quantized(_ rate: Double) -> Double {
        Double(rateUnits(rate)) / Double(rateDenominator)
    }

    /// `rate × rateDenominator`, rounded to the nearest integer (0 for a non-finite rate).
    static func rateUnits(_ rate: Double) -> Int64 {
        guard rate.isFinite, abs(rate) < 1e9 else { return 0 }
        return Int64((rate * Double(rateDenominator)).rounded())
    }

    /// The first problem with this ramp, as a sentence, or nil when it is usable: a finite positive duration; at
    /// least one key; the first key at offset 0; offsets finite, strictly increasing and not past ``duration``;
    /// every rate within `1/32 ... 32` after rounding to 1/8000.
    public func problem() -> String? {
        guard duration.isNumeric, duration > .zero else { return "duration \(duration) is not a positive finite time" }
        guard let first = keyframes.first else { return "it has no keyframes" }
        guard first.time == .zero else { return "the first keyframe is at \(first.time), not at offset 0" }
        var previous: MediaTime?
        for (index, key) in keyframes.enumerated() {
            guard key.time.isNumeric, key.time <= duration else {
                return "keyframe \(index) is at \(key.time), outside 0 ... \(duration)"
            }
            if let previous, key.time <= previous {
                return "keyframe \(index) is at \(key.time), not after the previous key (\(previous))"
            }
            previous = key.time
            let units = Self.rateUnits(key.value)
            let limit = CompositionTrack.speedLimit
            guard units * limit >= Self.rateDenominator, units <= Self.rateDenominator * limit else {
                return "keyframe \(index) has rate \(key.value), outside 1/\(limit) ... \(limit)"
            }
        }
        return nil
    }
}
