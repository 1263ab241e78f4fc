/// A ramp of a keyframed parameter: the value goes from ``startValue`` at `timeRange.start` to ``endValue`` at
/// `timeRange.end` along ``easing``; the end value holds at and after the end. As the ramps of AVFoundation's
/// `setOpacityRamp(fromStartOpacity:toEndOpacity:timeRange:)` and `setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)`.
public struct KeyframeRamp<Value: Sendable & Hashable & Codable>: Sendable, Hashable {
    /// The composition time range `[start, end)` of the ramp. A valid ramp has a numeric start and a numeric,
    /// positive duration; others are kept so that validation can name them, and evaluation ignores them.
    public var timeRange: TimeRange
    /// The value at `timeRange.start`.
    public var startValue: Value
    /// The value reached at `timeRange.end` and held afterwards.
    public var endValue: Value
    /// The curve between the two values.
    public var easing: Easing

    /// A ramp from `startValue` to `endValue` over `timeRange`.
    public init(timeRange: TimeRange, startValue: Value, endValue: Value, easing: Easing = .linear) {
        self.timeRange = timeRange
        self.startValue = startValue
        self.endValue = endValue
        self.easing = easing
    }

    /// True when the ramp can be evaluated: a numeric start and a valid, non-negative duration (a zero duration
    /// is a jump to ``endValue``; an infinite one holds ``startValue`` for ever).
    var isEvaluable: Bool {
        timeRange.start.isNumeric && timeRange.duration.isValid && timeRange.duration >= .zero
            && (timeRange.duration.isNumeric || timeRange.duration.isPositiveInfinity)
    }

    /// True when the ramp is well formed: a numeric start and a numeric duration > 0. Validation reports others.
    public var hasValidTimeRange: Bool {
        timeRange.start.isNumeric && timeRange.duration.isNumeric && timeRange.duration > .zero
    }

    /// The value at `time`: ``startValue`` before and at the start, the eased blend inside, ``endValue`` at and
    /// after the end.
    ///
    /// The elapsed fraction `(time − start) / duration` is computed as an exact rational from the ``MediaTime``
    /// values and rounded to `Double` once; then `interpolate(start, end, easing.progress(fraction))`.
    ///
    /// - Parameters:
    ///   - time: a composition time.
    ///   - interpolate: blends two values by a share in 0...1 (0 must give the first value exactly).
    public func value(at time: MediaTime, interpolate: (Value, Value, Double) -> Value) -> Value {
        if time < timeRange.start { return startValue }
        guard timeRange.duration.isNumeric else { return startValue }
        if time >= timeRange.end { return endValue }
        let progress = easing.progress(Self.fraction(of: time, in: timeRange))
        return progress == 0 ? startValue : interpolate(startValue, endValue, progress)
    }

    /// `(time − range.start) / range.duration` as a `Double`, from the exact rational (one rounding when the reduced
    /// numerator and denominator fit 53 bits, which they do for any realistic media time).
    static func fraction(of time: MediaTime, in range: TimeRange) -> Double {
        let offset = time - range.start
        let duration = range.duration
        guard offset.isNumeric, duration.isNumeric, duration.value != 0 else { return 0 }
        var numerator = Int128(offset.value) * Int128(duration.timescale)
        var denominator = Int128(offset.timescale) * Int128(duration.value)
        let divisor = MediaTime.gcd(numerator, denominator)
        if divisor > 1 {
            numerator /= divisor
            denominator /= divisor
        }
        return Double(numerator) / Double(denominator)
    }
}

extension KeyframeRamp where Value: Interpolatable {
    /// The value at `time`, blending with ``Interpolatable/interpolated(to:fraction:)``; see
    /// ``value(at:interpolate:)``.
    public func value(at time: MediaTime) -> Value {
        value(at: time) { $0.interpolated(to: $1, fraction: $2) }
    }
}
