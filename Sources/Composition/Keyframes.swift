/// The time-varying value of one parameter (a layer's transform, opacity or crop, an overlay's position, a track's
/// volume): the one implementation of AVFoundation's "set a value at a time / set a ramp over a range" model,
/// shared by `VideoComposition` and `AudioMix`, with keyframe easing on top.
///
/// The parameter is described by ``entries`` in time order, each a value set at a time or a ``KeyframeRamp``.
/// Evaluation (``value(at:interpolate:)``) follows AVFoundation's rules:
/// - before the first entry nothing is in force: the caller's default applies (identity, opacity 1.0, the full
///   frame, volume 1.0);
/// - the entry in force at time `t` is the one with the latest start `≤ t`; so a value set at a time wins from that
///   time on, even inside an earlier ramp, and a later ramp wins from its start;
/// - a ramp's start value applies only from the ramp's start (before it, the earlier value or the default holds);
///   inside the ramp the value is blended by the exact elapsed fraction; at and after the ramp's end the end value
///   holds, until the next entry;
/// - after the last entry its (end) value holds for ever.
///
/// Setting an entry at the same start time as an existing one replaces it (the later call wins). Entries whose
/// time or range is not usable (an invalid time, a negative duration) are kept, so that validation can report
/// them, and are skipped by evaluation.
///
/// Codable as a JSON array of entries, each `{"time": "2/1", "value": …}` or
/// `{"timeRange": {…}, "startValue": …, "endValue": …, "easing": "linear"}`.
public struct Keyframes<Value: Sendable & Hashable & Codable>: Sendable, Hashable {
    /// One entry of a keyframed parameter.
    public enum Entry: Sendable, Hashable {
        /// `value` applies from `time` on (AVFoundation's `setOpacity(_:at:)`, `setVolume(_:at:)`, …).
        case value(Value, at: MediaTime)
        /// A ramp (AVFoundation's `set…Ramp(…)`).
        case ramp(KeyframeRamp<Value>)

        /// The time from which the entry is in force.
        public var start: MediaTime {
            switch self {
            case .value(_, let time): return time
            case .ramp(let ramp): return ramp.timeRange.start
            }
        }

        /// True when evaluation can use the entry (a numeric time; a ramp with a non-negative duration).
        var isEvaluable: Bool {
            switch self {
            case .value(_, let time): return time.isNumeric
            case .ramp(let ramp): return ramp.isEvaluable
            }
        }
    }

    /// The entries, ordered by start time (entries with an invalid time last, in the order they were set).
    public private(set) var entries: [Entry]

    /// No entries: the caller's default applies at every time.
    public init() {
        entries = []
    }

    /// The parameter described by `entries`, inserted one by one as ``insert(_:)`` does.
    public init(entries: [Entry]) {
        self.entries = []
        for entry in entries { insert(entry) }
    }

    /// True when no entry has been set.
    public var isEmpty: Bool { entries.isEmpty }

    /// Sets `value` from `time` on, as AVFoundation's `setOpacity(_:at:)`. Replaces an entry starting at the same
    /// time. A non-numeric `time` is kept for validation to report and ignored by evaluation.
    public mutating func setValue(_ value: Value, at time: MediaTime) {
        insert(.value(value, at: time))
    }

    /// Sets a ramp from `startValue` to `endValue` over `timeRange`, as AVFoundation's
    /// `setOpacityRamp(fromStartOpacity:toEndOpacity:timeRange:)`. Replaces an entry starting at the same time.
    ///
    /// - Parameters:
    ///   - startValue: the value at `timeRange.start`.
    ///   - endValue: the value at `timeRange.end`, held afterwards.
    ///   - timeRange: composition time; should have a numeric start and a positive duration (validation reports
    ///     others; evaluation treats a zero duration as a jump to `endValue`).
    ///   - easing: the curve; ``Easing/linear`` as AVFoundation.
    public mutating func setRamp(from startValue: Value, to endValue: Value, timeRange: TimeRange, easing: Easing = .linear) {
        insert(.ramp(KeyframeRamp(timeRange: timeRange, startValue: startValue, endValue: endValue, easing: easing)))
    }

    /// Adds the curve through `keyframes`: a ramp from each key to the next with the first key's easing, so the
    /// value passes through every key's value at its time; after the last key its value holds.
    ///
    /// Keys are used in the order given and should have increasing times. Two consecutive keys at the same time
    /// make a jump (the second wins from that time). A key earlier than its predecessor yields a ramp with a negative
    /// duration, which validation reports (and evaluation ignores). A single key is a plain ``setValue(_:at:)``.
    public mutating func setKeyframes(_ keyframes: [Keyframe<Value>]) {
        guard let last = keyframes.last else { return }
        for (key, next) in zip(keyframes, keyframes.dropFirst()) where key.time != next.time {
            setRamp(from: key.value, to: next.value, timeRange: TimeRange(start: key.time, end: next.time), easing: key.easing)
        }
        if keyframes.count == 1 || keyframes[keyframes.count - 2].time == last.time {
            setValue(last.value, at: last.time)
        }
    }

    /// Removes every entry.
    public mutating func removeAll() {
        entries.removeAll()
    }

    /// Inserts `entry` in time order (after entries with an equal-or-earlier start), replacing an entry with the
    /// same numeric start. Complexity: O(1) for an entry starting after the last one (entries set in time order,
    /// as ramp after ramp along a timeline), O(n) in the number of entries otherwise.
    public mutating func insert(_ entry: Entry) {
        let start = entry.start
        // The entries are in time order with invalid times last: after a numeric last entry that starts earlier,
        // no entry starts at `start` and none starts later.
        if start.isNumeric, let last = entries.last?.start, last.isNumeric, last < start {
            entries.append(entry)
            return
        }
        if start.isNumeric {
            entries.removeAll { $0.start.isNumeric && $0.start == start }
        }
        let index = entries.firstIndex { $0.start > start } ?? entries.endIndex
        entries.insert(entry, at: index)
    }
}
