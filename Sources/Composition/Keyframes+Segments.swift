extension Keyframes {
    /// The curve of the parameter over `range` as consecutive pieces, exactly as ``value(at:interpolate:)``
    /// evaluates it: constant pieces (adjacent equal ones merged) and ramping pieces. The pieces tile `range`
    /// without gap or overlap.
    ///
    /// A ramp whose start and end values are equal, or whose easing is ``Easing/hold``, gives constant pieces.
    /// Complexity: O(n) in the number of entries.
    ///
    /// - Parameters:
    ///   - range: composition time; needs a numeric start and a non-negative numeric or infinite duration,
    ///     otherwise (and for an empty range) the result is empty.
    ///   - defaultValue: the value before the first entry (identity, 1.0, …).
    ///   - interpolate: blends two values by a share in 0...1, as for evaluation.
    public func segments(
        in range: TimeRange, default defaultValue: Value, interpolate: (Value, Value, Double) -> Value
    ) -> [KeyframeSegment<Value>] {
        guard range.isValid, range.start.isNumeric, range.duration > .zero,
              range.duration.isNumeric || range.duration.isPositiveInfinity
        else { return [] }
        let lower = range.start, upper = range.end
        var pieces: [KeyframeSegment<Value>] = []

        func appendConstant(_ value: Value, from start: MediaTime, to end: MediaTime) {
            let from = Swift.max(start, lower), to = Swift.min(end, upper)
            guard from < to else { return }
            if let last = pieces.last, last.isConstant, last.startValue == value, last.timeRange.end == from {
                pieces[pieces.count - 1].timeRange = TimeRange(start: last.timeRange.start, end: to)
            } else {
                pieces.append(KeyframeSegment(
                    timeRange: TimeRange(start: from, end: to), startValue: value, endValue: value, ramp: nil))
            }
        }

        func appendRamp(_ ramp: KeyframeRamp<Value>, from start: MediaTime, to end: MediaTime) {
            let from = Swift.max(start, lower), to = Swift.min(end, upper)
            guard from < to else { return }
            let endValue = to == ramp.timeRange.end ? ramp.endValue : ramp.value(at: to, interpolate: interpolate)
            pieces.append(KeyframeSegment(
                timeRange: TimeRange(start: from, end: to), startValue: ramp.value(at: from, interpolate: interpolate),
                endValue: endValue, ramp: ramp))
        }

        let entries = evaluableEntries
        appendConstant(defaultValue, from: .negativeInfinity, to: entries.first?.start ?? .positiveInfinity)
        for (index, entry) in entries.enumerated() {
            let start = entry.start
            let next = index + 1 < entries.count ? entries[index + 1].start : MediaTime.positiveInfinity
            switch entry {
            case .value(let value, _):
                appendConstant(value, from: start, to: next)
            case .ramp(let ramp):
                let duration = ramp.timeRange.duration
                if !duration.isNumeric {
                    appendConstant(ramp.startValue, from: start, to: next)
                    continue
                }
                let end = ramp.timeRange.end
                let rampEnd = Swift.min(end, next)
                if ramp.easing == .hold || ramp.startValue == ramp.endValue {
                    appendConstant(ramp.startValue, from: start, to: rampEnd)
                } else {
                    appendRamp(ramp, from: start, to: rampEnd)
                }
                if end < next { appendConstant(ramp.endValue, from: end, to: next) }
            }
        }
        return pieces
    }

    /// True when the parameter has one value over the whole of `range` (ramps with equal end values and repeated
    /// equal values count as constant). An empty or unusable range counts as constant.
    ///
    /// - Parameters:
    ///   - range: composition time.
    ///   - defaultValue: the value before the first entry.
    ///   - interpolate: blends two values, as for evaluation.
    public func isConstant(in range: TimeRange, default defaultValue: Value, interpolate: (Value, Value, Double) -> Value) -> Bool {
        let pieces = segments(in: range, default: defaultValue, interpolate: interpolate)
        return pieces.count <= 1 && pieces.allSatisfy(\.isConstant)
    }
}

extension Keyframes where Value: Interpolatable {
    /// ``segments(in:default:interpolate:)`` blending with ``Interpolatable/interpolated(to:fraction:)``.
    public func segments(in range: TimeRange, default defaultValue: Value) -> [KeyframeSegment<Value>] {
        segments(in: range, default: defaultValue) { $0.interpolated(to: $1, fraction: $2) }
    }

    /// ``isConstant(in:default:interpolate:)`` blending with ``Interpolatable/interpolated(to:fraction:)``.
    public func isConstant(in range: TimeRange, default defaultValue: Value) -> Bool {
        isConstant(in: range, default: defaultValue) { $0.interpolated(to: $1, fraction: $2) }
    }
}
