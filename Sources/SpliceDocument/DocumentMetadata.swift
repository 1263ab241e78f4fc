/// Free-form metadata of a document item (a track or a segment): a JSON object kept as written and carried through
/// conversions, never read by Splice — the `metadata` other tools attach to an OpenTimelineIO clip or track (a
/// studio's shot IDs, an editor's notes).
///
/// ```json
/// "metadata": { "studio": { "shot": "A042", "take": 3 }, "reviewed": true }
/// ```
///
/// Numbers are kept as doubles (JSON's own numbers), objects without their members' order.
public struct DocumentMetadata: Sendable, Hashable, Codable {
    /// A JSON value.
    public indirect enum Value: Sendable, Hashable, Codable {
        /// `null`.
        case null
        /// `true` / `false`.
        case bool(Bool)
        /// A number.
        case number(Double)
        /// A string.
        case string(String)
        /// An array.
        case array([Value])
        /// An object.
        case object([String: Value])

        /// Decodes any JSON value.
        ///
        /// - Throws: `DecodingError` when the value is none of them.
        public init(from decoder: any Swift.Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([Value].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        /// Encodes the value as the JSON value it is.
        public func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }
    }

    /// The object's members.
    public var values: [String: Value]

    /// Metadata holding `values`.
    public init(_ values: [String: Value]) {
        self.values = values
    }

    /// Decodes a JSON object.
    ///
    /// - Throws: `DecodingError` when the value is not an object.
    public init(from decoder: any Swift.Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: Value].self)
    }

    /// Encodes the object.
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}
