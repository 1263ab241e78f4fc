extension VideoSettings.RateControl: Codable {
    private enum CodingKeys: String, CodingKey {
        case constantQuality, averageBitRate
    }

    /// The key Swift's synthesized `Codable` wrote the associated value under (`{"constantQuality": {"_0": 23}}`).
    private enum SynthesizedKeys: String, CodingKey {
        case value = "_0"
    }

    /// Decodes `{"constantQuality": 23}` or `{"averageBitRate": 2000000}`; the form Swift's synthesized `Codable`
    /// wrote before, `{"constantQuality": {"_0": 23}}`, is read too.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the object has neither key or both; `DecodingError` from the
    ///   value when it is not a whole number.
    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let given = [CodingKeys.constantQuality, .averageBitRate].filter { container.contains($0) }
        guard given.count == 1, let key = given.first else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath,
                debugDescription: given.isEmpty
                    ? "expected { \"constantQuality\": CRF } or { \"averageBitRate\": bits per second }"
                    : "give either \"constantQuality\" or \"averageBitRate\", not both"))
        }
        let value: Int
        if let synthesized = try? container.nestedContainer(keyedBy: SynthesizedKeys.self, forKey: key) {
            value = try synthesized.decode(Int.self, forKey: .value)
        } else {
            value = try container.decode(Int.self, forKey: key)
        }
        switch key {
        case .constantQuality: self = .constantQuality(value)
        case .averageBitRate: self = .averageBitRate(value)
        }
    }

    /// Encodes `{"constantQuality": 23}` or `{"averageBitRate": 2000000}`.
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .constantQuality(let crf): try container.encode(crf, forKey: .constantQuality)
        case .averageBitRate(let bitsPerSecond): try container.encode(bitsPerSecond, forKey: .averageBitRate)
        }
    }
}
