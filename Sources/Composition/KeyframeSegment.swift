/// One piece of a keyframed parameter's curve over a time range, for a renderer that compiles constant pieces into
/// fixed filter settings and drives ramping pieces per frame or per sample. Produced by
/// ``Keyframes/segments(in:default:interpolate:)``.
///
/// A constant piece has ``ramp`` nil and `startValue == endValue`. A ramping piece carries the whole
/// ``KeyframeRamp`` it lies in (its ``timeRange`` may be only part of the ramp's range); for a linear ramp the
/// piece is the straight line from ``startValue`` to ``endValue``, for an eased one evaluate ``ramp``.
public struct KeyframeSegment<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The composition time range `[start, end)` the piece covers (within the range asked for).
    public var timeRange: TimeRange
    /// The value at `timeRange.start`.
    public var startValue: Value
    /// The value approached at `timeRange.end` (the left limit: the next piece may start with another value).
    public var endValue: Value
    /// The ramp in force over the piece; nil for a constant piece.
    public var ramp: KeyframeRamp<Value>?

    /// A piece of a curve.
    public init(timeRange: TimeRange, startValue: Value, endValue: Value, ramp: KeyframeRamp<Value>?) {
        self.timeRange = timeRange
        self.startValue = startValue
        self.endValue = endValue
        self.ramp = ramp
    }

    /// True when the value does not change over the piece.
    public var isConstant: Bool { ramp == nil }

    /// The easing of the piece: the ramp's, or ``Easing/hold`` for a constant piece.
    public var easing: Easing { ramp?.easing ?? .hold }
}
