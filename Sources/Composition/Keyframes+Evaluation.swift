extension Keyframes {
    /// The value in force at `time`, or nil when no entry is in force yet (before the first entry), in which case the
    /// parameter's default applies (identity transform, opacity 1.0, full frame, volume 1.0 — as AVFoundation).
    ///
    /// See ``Keyframes`` for the rules. A non-numeric `time` is ordered as ``MediaTime`` orders it (−∞ before every
    /// entry, +∞ and ``MediaTime/indefinite`` after all); an invalid `time` gives nil.
    /// Complexity: O(n) in the number of entries.
    ///
    /// - Parameters:
    ///   - time: a composition time.
    ///   - interpolate: blends two values by a share in 0...1 (0 must give the first value exactly).
    public func value(at time: MediaTime, interpolate: (Value, Value, Double) -> Value) -> Value? {
        guard time.isValid, let entry = entryInForce(at: time) else { return nil }
        switch entry {
        case .value(let value, _): return value
        case .ramp(let ramp): return ramp.value(at: time, interpolate: interpolate)
        }
    }

    /// The entry with the latest start `≤ time` among the evaluable ones.
    func entryInForce(at time: MediaTime) -> Entry? {
        entries.last { $0.isEvaluable && $0.start <= time }
    }

    /// The evaluable entries, in time order.
    var evaluableEntries: [Entry] { entries.filter(\.isEvaluable) }
}

extension Keyframes where Value: Interpolatable {
    /// The value in force at `time`, blending with ``Interpolatable/interpolated(to:fraction:)``; nil before the
    /// first entry. See ``value(at:interpolate:)``.
    public func value(at time: MediaTime) -> Value? {
        value(at: time) { $0.interpolated(to: $1, fraction: $2) }
    }

    /// The value at `time`, or `defaultValue` when no entry is in force yet.
    public func value(at time: MediaTime, default defaultValue: Value) -> Value {
        value(at: time) ?? defaultValue
    }
}
