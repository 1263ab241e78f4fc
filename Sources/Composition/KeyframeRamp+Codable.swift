extension KeyframeRamp: Codable {
    private enum CodingKeys: String, CodingKey {
        case timeRange, startValue, endValue, easing
    }

    /// Decodes `{"timeRange": …, "startValue": …, "endValue": …, "easing": …}`; `easing` may be left out (linear).
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            timeRange: try container.decode(TimeRange.self, forKey: .timeRange),
            startValue: try container.decode(Value.self, forKey: .startValue),
            endValue: try container.decode(Value.self, forKey: .endValue),
            easing: try container.decodeIfPresent(Easing.self, forKey: .easing) ?? .linear)
    }

    /// Encodes every field, `easing` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timeRange, forKey: .timeRange)
        try container.encode(startValue, forKey: .startValue)
        try container.encode(endValue, forKey: .endValue)
        try container.encode(easing, forKey: .easing)
    }
}
