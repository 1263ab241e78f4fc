extension Keyframes: Codable {
    /// Decodes a JSON array of entries (see ``Keyframes``), inserting them in order as ``insert(_:)`` does.
    ///
    /// - Throws: `DecodingError` when an element is neither a `{"time", "value"}` object nor a ramp object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(entries: try container.decode([Entry].self))
    }

    /// Encodes the entries as a JSON array, in time order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }
}

extension Keyframes.Entry: Codable {
    private enum CodingKeys: String, CodingKey {
        case time, value
    }

    /// Decodes `{"time": …, "value": …}` as ``value(_:at:)``; any other object as a ``KeyframeRamp``
    /// (`timeRange`, `startValue`, `endValue`, optional `easing`, default `linear`).
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.time) {
            self = .value(try container.decode(Value.self, forKey: .value), at: try container.decode(MediaTime.self, forKey: .time))
        } else {
            self = .ramp(try KeyframeRamp<Value>(from: decoder))
        }
    }

    /// Encodes a value entry as `{"time": …, "value": …}` and a ramp as its ``KeyframeRamp`` object.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .value(let value, let time):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(time, forKey: .time)
            try container.encode(value, forKey: .value)
        case .ramp(let ramp):
            try ramp.encode(to: encoder)
        }
    }
}
