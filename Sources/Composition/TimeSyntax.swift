/// Reads the times people write — in ``MediaTime``'s `Codable` form (so in composition documents) and on the `splice`
/// command line — exactly (never through `Double`):
///
/// | written | meaning |
/// |---|---|
/// | `"3.5s"`, `"250ms"`, `3.5`, `"3.5"` | seconds (decimals are exact: `"0.1s"` is 1/10 s) |
/// | `"00:01:02.5"`, `"01:02.5"` | hours:minutes:seconds or minutes:seconds |
/// | `"90f"` | 90 frames at the composition's frame rate (the frame duration must be known) |
/// | `"1001/30000"` | an exact fraction of a second (the `Codable` form of ``Composition/MediaTime``) |
/// | `"+inf"`, `"-inf"`, `"indefinite"` | the special values (e.g. an overlay shown to the end) |
public enum TimeSyntax {
    /// The time written as `text`.
    ///
    /// - Parameters:
    ///   - text: one of the forms above (spaces around it and before a unit are allowed).
    ///   - frameDuration: the length of one frame (e.g. 1/30 s), needed for `"90f"`; nil when unknown.
    /// - Returns: the exact time; decimals keep their exact value (`"0.1s"` is `1/10`).
    /// - Throws: ``TimeSyntaxError`` naming the text and what is wrong (unknown form, frames without a frame rate,
    ///   more than 9 decimals, a value too large).
    public static func parse(_ text: String, frameDuration: MediaTime? = nil) throws(TimeSyntaxError) -> MediaTime {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw TimeSyntaxError(text: text, reason: "the text is empty") }
        if trimmed.contains(":") { return try parseClock(trimmed, original: text) }
        if trimmed.contains("/") || ["+inf", "inf", "-inf", "indefinite", "invalid"].contains(trimmed) {
            guard let time = MediaTime(rationalText: trimmed) else {
                throw TimeSyntaxError(text: text, reason: "a fraction is written \"value/timescale\" with whole numbers and a timescale > 0")
            }
            return time
        }
        var number = Substring(trimmed)
        var unit = ""
        while let last = number.last, last.isLetter {
            unit = String(last) + unit
            number = number.dropLast()
        }
        number = Substring(String(number).trimmingSpaces)
        switch unit {
        case "", "s":
            return try seconds(decimal: String(number), original: text)
        case "ms":
            let (numerator, denominator) = try rational(decimal: String(number), original: text)
            let (scaled, overflow) = denominator.multipliedReportingOverflow(by: 1000)
            guard !overflow else { throw TimeSyntaxError(text: text, reason: "too many decimals") }
            return try time(numerator, scaled, original: text)
        case "f":
            guard let frames = Int64(number) else {
                throw TimeSyntaxError(text: text, reason: "a frame count is a whole number (\"90f\")")
            }
            guard let frameDuration, frameDuration.isNumeric, frameDuration > .zero else {
                throw TimeSyntaxError(
                    text: text,
                    reason: "frames need the composition's frame rate, which is not known here (write seconds instead)")
            }
            let result = frameDuration * frames
            guard result.isNumeric, !result.hasBeenRounded else { throw TimeSyntaxError(text: text, reason: "the time is too large") }
            return result
        default:
            throw TimeSyntaxError(text: text, reason: "unknown unit '\(unit)' (use s, ms or f)")
        }
    }

    /// The time in seconds written as a JSON number literal (`3.5`, `2`, `1e-3`), exactly.
    ///
    /// - Throws: ``TimeSyntaxError`` for more than 9 decimals or a value too large.
    public static func parse(secondsLiteral literal: String) throws(TimeSyntaxError) -> MediaTime {
        try seconds(decimal: literal, original: literal)
    }

    /// A decimal number (`"2"`, `"0.5"`, `"1.25e2"`, `"-3"`) as an exact reduced fraction `numerator / denominator`
    /// (denominator > 0), or nil when it is not a decimal number or does not fit `Int64`.
    public static func fraction(decimal text: String) -> (numerator: Int64, denominator: Int64)? {
        try? rational(decimal: text, original: text)
    }

    // MARK: - Pieces

    private static func seconds(decimal text: String, original: String) throws(TimeSyntaxError) -> MediaTime {
        let (numerator, denominator) = try rational(decimal: text, original: original)
        return try time(numerator, denominator, original: original)
    }

    private static func time(_ numerator: Int64, _ denominator: Int64, original: String) throws(TimeSyntaxError) -> MediaTime {
        let divisor = gcd(numerator.magnitude, denominator.magnitude)
        let reducedDenominator = denominator / Int64(divisor)
        guard let timescale = Int32(exactly: reducedDenominator) else {
            throw TimeSyntaxError(text: original, reason: "too precise: at most 9 decimals")
        }
        return MediaTime(value: numerator / Int64(divisor), timescale: timescale)
    }

    private static func parseClock(_ text: String, original: String) throws(TimeSyntaxError) -> MediaTime {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 || parts.count == 3 else {
            throw TimeSyntaxError(text: original, reason: "a clock time is hh:mm:ss or mm:ss (seconds may have decimals)")
        }
        var total: Int64 = 0  // whole minutes
        for (offset, part) in parts.dropLast().enumerated() {
            guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit), let number = Int64(part) else {
                throw TimeSyntaxError(text: original, reason: "hours and minutes are whole numbers")
            }
            if parts.count == 3, offset == 1, number >= 60 {
                throw TimeSyntaxError(text: original, reason: "minutes must be below 60")
            }
            let (scaled, overflow1) = total.multipliedReportingOverflow(by: 60)
            let (sum, overflow2) = (offset == 0 ? 0 : scaled).addingReportingOverflow(number)
            guard !overflow1, !overflow2 else { throw TimeSyntaxError(text: original, reason: "the time is too large") }
            total = sum
        }
        let secondsText = parts[parts.count - 1]
        guard let first = secondsText.first, first.isASCIIDigit else {
            throw TimeSyntaxError(text: original, reason: "the seconds of a clock time are a number like 02 or 02.5")
        }
        let (numerator, denominator) = try rational(decimal: secondsText, original: original)
        guard numerator < 60 * denominator else { throw TimeSyntaxError(text: original, reason: "seconds must be below 60") }
        let (minutesInSeconds, overflow1) = total.multipliedReportingOverflow(by: 60)
        let (wholeScaled, overflow2) = minutesInSeconds.multipliedReportingOverflow(by: denominator)
        let (sum, overflow3) = wholeScaled.addingReportingOverflow(numerator)
        guard !overflow1, !overflow2, !overflow3 else { throw TimeSyntaxError(text: original, reason: "the time is too large") }
        return try time(sum, denominator, original: original)
    }

    /// `[+-]digits[.digits][e[+-]digits]` as an exact fraction.
    private static func rational(decimal text: String, original: String) throws(TimeSyntaxError) -> (Int64, Int64) {
        let invalid = TimeSyntaxError(
            text: original,
            reason: "write seconds (\"3.5s\" or 3.5), milliseconds (\"250ms\"), a clock time (\"00:01:02.5\"), "
                + "frames (\"90f\") or a fraction (\"1001/30000\")")
        var characters = Substring(text)
        var negative = false
        if let sign = characters.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            characters = characters.dropFirst()
        }
        var exponent = 0
        if let marker = characters.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int(characters[characters.index(after: marker)...]), abs(value) < 40 else { throw invalid }
            exponent = value
            characters = characters[..<marker]
        }
        let pieces = characters.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = pieces.first, !(whole.isEmpty && (pieces.count == 1 || pieces[1].isEmpty)),
              whole.allSatisfy(\.isASCIIDigit), pieces.count == 1 || pieces[1].allSatisfy(\.isASCIIDigit)
        else { throw invalid }
        let fractionDigits = pieces.count == 2 ? String(pieces[1]) : ""
        var digits = String(whole) + fractionDigits
        while digits.count > 1, digits.first == "0" { digits.removeFirst() }
        if digits.isEmpty { digits = "0" }
        let scale = exponent - fractionDigits.count
        let tooLarge = TimeSyntaxError(text: original, reason: "the number is too large or has too many digits")
        guard var numerator = Int64(digits) else { throw tooLarge }
        var denominator: Int64 = 1
        for _ in 0..<abs(scale) {
            if scale > 0 {
                let (product, overflow) = numerator.multipliedReportingOverflow(by: 10)
                guard !overflow else { throw tooLarge }
                numerator = product
            } else {
                let (product, overflow) = denominator.multipliedReportingOverflow(by: 10)
                guard !overflow else { throw TimeSyntaxError(text: original, reason: "too precise: at most 9 decimals") }
                denominator = product
            }
        }
        let divisor = Int64(gcd(numerator.magnitude, denominator.magnitude))
        return ((negative ? -numerator : numerator) / divisor, denominator / divisor)
    }

    private static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        max(UInt64.greatestCommonDivisor(a, b), 1)
    }
}

/// A time in a document or on the command line that could not be read; ``description`` names the text and the
/// reason.
public struct TimeSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as written.
    public var text: String
    /// What is wrong with it, and how to write it.
    public var reason: String

    /// An error about `text`.
    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    /// `'3.5x' is not a time: unknown unit 'x' (use s, ms or f)`.
    public var description: String { "'\(text)' is not a time: \(reason)" }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

extension Character {
    /// True for `0`…`9` only.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
