import Foundation

extension MediaTime: Codable {
    /// Decodes a time from any of the forms a person may write:
    /// - a string `"value/timescale"` (e.g. `"1001/30000"`), optionally followed by `" (rounded)"`;
    /// - a string of whole seconds (`"3"`);
    /// - `"+inf"`, `"-inf"`, `"indefinite"`, `"invalid"`;
    /// - any other ``TimeSyntax`` string: seconds (`"3.5s"`, `"3.5"`), milliseconds (`"250ms"`), a clock time
    ///   (`"00:01:02.5"`), frames (`"90f"`, when the decoder's `userInfo` holds `CodingUserInfoKey.frameDuration`);
    /// - a number of seconds (`3.5`), read exactly through `Decimal` (`0.1` is 1/10 s, never a binary float), when the
    ///   decoder's `userInfo[.numbersAreSeconds]` is true (composition documents set it); otherwise a number is a type
    ///   mismatch, as it always was in the models' own JSON;
    /// - an object `{"value": 1001, "timescale": 30000}`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the text and the reason when it is none of these (the
    ///   ``TimeSyntaxError`` text: `'3x' is not a time: unknown unit 'x' (use s, ms or f)`), or when the timescale
    ///   is ≤ 0; `DecodingError.typeMismatch` for a value that is neither a string, an allowed number nor an object.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: CodingKeys.self) {
            let value = try Self.decodeInteger(Int64.self, forKey: .value, in: container)
            let timescale = try Self.decodeInteger(Int32.self, forKey: .timescale, in: container)
            guard timescale > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .timescale, in: container, debugDescription: "timescale must be > 0, got \(timescale)")
            }
            let rounded = try container.decodeIfPresent(Bool.self, forKey: .rounded) ?? false
            self = MediaTime(kind: .numeric, value: value, timescale: timescale, rounded: rounded)
            return
        }
        let container = try decoder.singleValueContainer()
        do {
            if let text = try? container.decode(String.self) {
                if let time = MediaTime(rationalText: text) {
                    self = time
                } else {
                    self = try TimeSyntax.parse(text, frameDuration: decoder.userInfo[.frameDuration] as? MediaTime)
                }
            } else if let number = try? container.decode(Decimal.self), decoder.userInfo[.numbersAreSeconds] as? Bool == true {
                self = try TimeSyntax.parse(secondsLiteral: number.description)
            } else {
                let found = container.decodeNil() ? "null"
                    : (try? container.decode(Bool.self)) != nil ? "a boolean"
                    : (try? container.decode(Double.self)) != nil ? "a number" : "an array"
                throw DecodingError.typeMismatch(MediaTime.self, .init(
                    codingPath: container.codingPath,
                    debugDescription: "expected a time (\"3.5s\", \"00:01:02.5\", \"90f\" or \"1001/30000\"), found \(found)"))
            }
        } catch let error as TimeSyntaxError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes as a string: `"value/timescale"` (with `" (rounded)"` when ``hasBeenRounded``), or the name of a
    /// special value. Decoding that string gives back the same value, timescale and flag.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rationalText)
    }

    private enum CodingKeys: String, CodingKey {
        case value, timescale, rounded
    }

    /// An integer field; a number out of the type's range is reported against its key (Foundation's JSONDecoder
    /// on Linux reports it as "not valid JSON" with no coding path).
    private static func decodeInteger<Integer: FixedWidthInteger & Decodable>(
        _ type: Integer.Type, forKey key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> Integer {
        if let integer = try? container.decode(Integer.self, forKey: key) { return integer }
        if let number = try? container.decode(Double.self, forKey: key) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "\(key.stringValue) \(number) is not a whole number in \(Integer.min)...\(Integer.max)")
        }
        return try container.decode(Integer.self, forKey: key)
    }

    /// The exact text form used by `Codable`: `"1001/30000"`, `"+inf"`, `"-inf"`, `"indefinite"`, `"invalid"`.
    public var rationalText: String {
        switch kind {
        case .numeric: return "\(value)/\(timescale)" + (hasBeenRounded ? " (rounded)" : "")
        case .positiveInfinity: return "+inf"
        case .negativeInfinity: return "-inf"
        case .indefinite: return "indefinite"
        case .invalid: return "invalid"
        }
    }

    /// Parses the forms of ``rationalText`` plus whole seconds (`"3"`); nil for anything else (including a timescale
    /// ≤ 0 or numbers that overflow).
    public init?(rationalText text: String) {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        switch body {
        case "+inf", "inf": self = .positiveInfinity; return
        case "-inf": self = .negativeInfinity; return
        case "indefinite": self = .indefinite; return
        case "invalid": self = .invalid; return
        default: break
        }
        var rounded = false
        if body.hasSuffix(" (rounded)") {
            rounded = true
            body = body.dropLast(" (rounded)".count)
        }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let seconds = Int64(parts[0]) else { return nil }
            self = MediaTime(kind: .numeric, value: seconds, timescale: 1, rounded: rounded)
        case 2:
            guard let value = Int64(parts[0]), let timescale = Int32(parts[1]), timescale > 0 else { return nil }
            self = MediaTime(kind: .numeric, value: value, timescale: timescale, rounded: rounded)
        default:
            return nil
        }
    }
}

extension CodingUserInfoKey {
    /// The length of one frame (a ``Composition/MediaTime``, e.g. 1/30 s) for decoding times written in frames
    /// (`"90f"`); without it such a time is a decoding error.
    public static let frameDuration = CodingUserInfoKey(rawValue: "Composition.MediaTime.frameDuration")!

    /// `true` (a `Bool`) to decode a JSON number as that many seconds (`3.5`, read exactly); without it a number
    /// where a ``Composition/MediaTime`` belongs is a type mismatch (a bare `0.033` is more likely a slip than a
    /// time). Composition documents set it.
    public static let numbersAreSeconds = CodingUserInfoKey(rawValue: "Composition.MediaTime.numbersAreSeconds")!
}
