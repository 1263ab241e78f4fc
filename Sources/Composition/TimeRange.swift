/// A range of time `[start, start + duration)`, as Core Media's `CMTimeRange`.
///
/// Ranges are half-open: ``contains(_:)-(MediaTime)`` is true for `start` and false for ``end``. A valid range has a
/// valid start and a valid, non-negative duration (`+∞` and ``MediaTime/indefinite`` are allowed, as in CMTimeRange,
/// for open-ended ranges). All arithmetic is exact ``MediaTime`` arithmetic.
public struct TimeRange: Sendable, Hashable, Codable {
    /// The first time inside the range.
    public var start: MediaTime
    /// The length; never negative in a valid range.
    public var duration: MediaTime

    /// The range `[start, start + duration)`, as `CMTimeRangeMake`. A negative or invalid duration yields a range
    /// whose ``isValid`` is false; editing operations reject it with a typed error.
    public init(start: MediaTime, duration: MediaTime) {
        self.start = start
        self.duration = duration
    }

    /// The range `[start, end)`, as `CMTimeRangeFromTimeToTime`. `end < start` yields an invalid range.
    public init(start: MediaTime, end: MediaTime) {
        self.init(start: start, duration: end - start)
    }

    /// The empty range at time zero.
    public static let zero = TimeRange(start: .zero, duration: .zero)
    /// A range that is not a range (invalid start and duration), as `kCMTimeRangeInvalid`.
    public static let invalid = TimeRange(start: .invalid, duration: .invalid)

    /// The first time after the range: `start + duration`.
    public var end: MediaTime { start + duration }

    /// True when start and duration are valid and the duration is not negative (and not −∞).
    public var isValid: Bool {
        start.isValid && duration.isValid && !start.isIndefinite && duration >= .zero
    }

    /// True for a valid range of zero duration.
    public var isEmpty: Bool { isValid && duration == .zero }

    /// Half-open membership: `start <= time < end`. False for invalid ranges and invalid times.
    public func contains(_ time: MediaTime) -> Bool {
        isValid && time.isValid && start <= time && time < end
    }

    /// True when `other` lies entirely inside this range (an empty `other` at ``end`` counts as inside).
    public func contains(_ other: TimeRange) -> Bool {
        isValid && other.isValid && start <= other.start && other.end <= end
    }

    /// The overlap of two ranges, as `CMTimeRangeGetIntersection`. Ranges that do not overlap give an empty range
    /// starting at the later start. Invalid in, ``invalid`` out.
    public func intersection(_ other: TimeRange) -> TimeRange {
        guard isValid, other.isValid else { return .invalid }
        let lower = Swift.max(start, other.start)
        let upper = Swift.min(end, other.end)
        return upper <= lower ? TimeRange(start: lower, duration: .zero) : TimeRange(start: lower, end: upper)
    }

    /// The smallest range containing both, as `CMTimeRangeGetUnion` (any gap between them is included).
    public func union(_ other: TimeRange) -> TimeRange {
        guard isValid, other.isValid else { return .invalid }
        return TimeRange(start: Swift.min(start, other.start), end: Swift.max(end, other.end))
    }

    /// `time` moved into the range, as `CMTimeClampToRange`: `start` if before it, `end` if after it.
    public func clamp(_ time: MediaTime) -> MediaTime {
        guard isValid, time.isValid else { return .invalid }
        return Swift.max(start, Swift.min(time, end))
    }

    /// Maps `time` from `source` to `target` linearly, as `CMTimeMapTimeFromRangeToRange`:
    /// `target.start + (time − source.start) × target.duration / source.duration`.
    ///
    /// Exact when representable (see ``MediaTime/multiplied(byRatio:over:)``). Used for speed changes: a source time
    /// of a scaled segment maps to its composition time this way. A zero-duration source gives ``MediaTime/invalid``.
    public static func mapTime(_ time: MediaTime, from source: TimeRange, to target: TimeRange) -> MediaTime {
        target.start + mapDuration(time - source.start, from: source, to: target)
    }

    /// Scales a duration by `target.duration / source.duration`, as `CMTimeMapDurationFromRangeToRange`.
    public static func mapDuration(_ duration: MediaTime, from source: TimeRange, to target: TimeRange) -> MediaTime {
        guard source.isValid, target.isValid, source.duration.isNumeric, target.duration.isNumeric,
              source.duration != .zero
        else { return .invalid }
        // d × (tv / ts_t) / (sv / ts_s) = d × (tv × ts_s) / (sv × ts_t)
        let multiplier = Int128(target.duration.value) * Int128(source.duration.timescale)
        let divisor = Int128(source.duration.value) * Int128(target.duration.timescale)
        return duration.multiplied(byWideRatio: multiplier, over: divisor)
    }
}

extension TimeRange: CustomStringConvertible {
    /// `[start, end)` with both ends in seconds and exact fractions, e.g. `[0.000 s (0/1), 2.000 s (60/30))`.
    public var description: String {
        isValid ? "[\(start), \(end))" : "invalid range (start \(start), duration \(duration))"
    }
}
