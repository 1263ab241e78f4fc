/// An exact rational time: `value / timescale` seconds, with CMTime's special values.
///
/// `MediaTime` is Splice's counterpart of Core Media's `CMTime`: timeline arithmetic is done on integers and never
/// goes through floating point. Two times are equal when they denote the same rational number of seconds, whatever
/// their timescales (`1/2 == 15/30`), and `Hashable` agrees with that equality.
///
/// **Making times** (Core Media → Splice):
///
/// ```swift
/// MediaTime(value: 1001, timescale: 30000)               // CMTimeMake(value: 1001, timescale: 30000)
/// MediaTime(seconds: 2.5, preferredTimescale: 600)       // CMTimeMakeWithSeconds(2.5, preferredTimescale: 600)
/// MediaTime(seconds: 3)                                  // whole seconds, exact (timescale 1)
/// asset.duration - MediaTime(seconds: 1)                 // CMTimeSubtract, exact
/// ```
///
/// `MediaTime(seconds:preferredTimescale:)` is for user input only (it rounds to the timescale and says so in
/// ``hasBeenRounded``); `"1.5s"`, `"00:01.5"` and `"90f"` are read by the `Codable` form.
///
/// Besides numeric times there are four special values, as in CMTime: ``invalid``, ``indefinite``,
/// ``positiveInfinity`` and ``negativeInfinity``. Their total order is
/// `negativeInfinity < every numeric time < indefinite < positiveInfinity < invalid`.
///
/// Arithmetic is exact whenever the exact result can be represented (a positive `Int32` timescale and an `Int64`
/// value). When it cannot, the result is rounded as each operation documents and ``hasBeenRounded`` is set; a result
/// whose magnitude does not fit `Int64` at all becomes ``positiveInfinity`` or ``negativeInfinity`` (also marked
/// rounded). Nothing wraps around and nothing traps.
public struct MediaTime: Sendable {
    /// The numerator: the time is `value / timescale` seconds. Zero for the special values.
    public let value: Int64
    /// The denominator, in units per second; always > 0 for a numeric time (e.g. 600, 30000, 48000).
    public let timescale: Int32
    let kind: Kind
    /// True when an operation that produced this time (or one of its inputs) had to round. Sticky, as CMTime's
    /// `kCMTimeFlags_HasBeenRounded`. It does not take part in equality or ordering.
    public let hasBeenRounded: Bool

    enum Kind: UInt8, Sendable, Hashable {
        // Raw values give the total order of kinds used by `<`.
        case negativeInfinity = 0
        case numeric = 1
        case indefinite = 2
        case positiveInfinity = 3
        case invalid = 4
    }

    init(kind: Kind, value: Int64 = 0, timescale: Int32 = 1, rounded: Bool = false) {
        self.kind = kind
        self.value = kind == .numeric ? value : 0
        self.timescale = kind == .numeric ? timescale : 1
        self.hasBeenRounded = rounded
    }

    /// A numeric time of `value / timescale` seconds, as `CMTimeMake`.
    ///
    /// - Parameters:
    ///   - value: the numerator, in units of `1 / timescale` seconds.
    ///   - timescale: units per second; must be > 0. A timescale of 0 or less gives ``invalid`` (as `CMTimeMake`
    ///     with a zero timescale gives an invalid time); every editing operation rejects invalid times with a typed
    ///     error, so such a time is reported, not used.
    public init(value: Int64, timescale: Int32) {
        if timescale > 0 {
            self.init(kind: .numeric, value: value, timescale: timescale)
        } else {
            self.init(kind: .invalid)
        }
    }

    /// A whole number of seconds (timescale 1).
    public init(seconds wholeSeconds: Int64) {
        self.init(kind: .numeric, value: wholeSeconds, timescale: 1)
    }

    /// The time nearest to `seconds` with the given timescale, as `CMTimeMakeWithSeconds`.
    ///
    /// Use it for user input only; timeline arithmetic never goes through `Double`. The value is rounded half away
    /// from zero; ``hasBeenRounded`` is set when `seconds × preferredTimescale` is not an integer.
    /// NaN gives ``invalid``; ±infinity gives ``positiveInfinity`` / ``negativeInfinity``; a magnitude beyond `Int64`
    /// at that timescale gives the infinity of its sign, marked rounded. A timescale ≤ 0 gives ``invalid``.
    ///
    /// - Parameters:
    ///   - seconds: the time in seconds.
    ///   - preferredTimescale: units per second of the result (e.g. 600, 90000).
    public init(seconds: Double, preferredTimescale: Int32) {
        guard preferredTimescale > 0, !seconds.isNaN else { self.init(kind: .invalid); return }
        guard seconds.isFinite else {
            self.init(kind: seconds > 0 ? .positiveInfinity : .negativeInfinity)
            return
        }
        let scaled = seconds * Double(preferredTimescale)
        let rounded = scaled.rounded(.toNearestOrAwayFromZero)
        // 2^63 is exactly representable; anything at or beyond it does not fit Int64.
        guard abs(rounded) < 9_223_372_036_854_775_808.0 else {
            self.init(kind: rounded > 0 ? .positiveInfinity : .negativeInfinity, rounded: true)
            return
        }
        self.init(kind: .numeric, value: Int64(rounded), timescale: preferredTimescale, rounded: rounded != scaled)
    }

    /// Zero seconds (`0/1`).
    public static let zero = MediaTime(kind: .numeric, value: 0, timescale: 1)
    /// Not a time: the result of undefined operations (e.g. `+∞ + −∞`). Absorbs every operation it enters.
    public static let invalid = MediaTime(kind: .invalid)
    /// A time not yet known (e.g. the duration of a live stream), as `kCMTimeIndefinite`.
    public static let indefinite = MediaTime(kind: .indefinite)
    /// Later than every numeric time.
    public static let positiveInfinity = MediaTime(kind: .positiveInfinity)
    /// Earlier than every numeric time.
    public static let negativeInfinity = MediaTime(kind: .negativeInfinity)

    /// False only for ``invalid``.
    public var isValid: Bool { kind != .invalid }
    /// True for a finite time with a positive timescale (not one of the special values).
    public var isNumeric: Bool { kind == .numeric }
    /// True for ``indefinite``.
    public var isIndefinite: Bool { kind == .indefinite }
    /// True for ``positiveInfinity``.
    public var isPositiveInfinity: Bool { kind == .positiveInfinity }
    /// True for ``negativeInfinity``.
    public var isNegativeInfinity: Bool { kind == .negativeInfinity }

    /// The time in seconds, for display and for handing to APIs that take floating point only.
    ///
    /// ±infinity map to `±Double.infinity`; ``indefinite`` and ``invalid`` map to NaN. Timeline math must not go
    /// through this value.
    public var seconds: Double {
        switch kind {
        case .numeric: return Double(value) / Double(timescale)
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        case .indefinite, .invalid: return .nan
        }
    }

    /// A copy marked as rounded.
    func markedRounded(_ rounded: Bool = true) -> MediaTime {
        rounded ? MediaTime(kind: kind, value: value, timescale: timescale, rounded: true) : self
    }
}
