extension MediaTime: CustomStringConvertible, CustomDebugStringConvertible {
    /// Seconds with millisecond precision followed by the exact fraction: `1.001 s (1001/1000)`; special values by
    /// name (`+∞`, `−∞`, `indefinite`, `invalid`). A rounded time ends with `~`.
    public var description: String {
        switch kind {
        case .numeric:
            return "\(MediaTime.formatSeconds(self)) s (\(value)/\(timescale))" + (hasBeenRounded ? "~" : "")
        case .positiveInfinity: return "+∞"
        case .negativeInfinity: return "−∞"
        case .indefinite: return "indefinite"
        case .invalid: return "invalid"
        }
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// Seconds with three decimals and the unit, `"1.500 s"` (``formatSeconds(_:)``), a special value by its name
    /// (`+∞`, `indefinite`, as ``description``): how every message and report of the package writes a time.
    package var secondsText: String { isNumeric ? "\(MediaTime.formatSeconds(self)) s" : description }

    /// Seconds with exactly three decimals, rounded half away from zero from the exact fraction (no `Double`).
    package static func formatSeconds(_ time: MediaTime) -> String {
        let (millis, _) = divide(Int128(time.value) * 1000, Int128(time.timescale), .halfAwayFromZero)
        let sign = millis < 0 ? "-" : ""
        let magnitude = millis.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
