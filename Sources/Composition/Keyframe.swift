/// One key of a keyframed parameter: a value at a time, and the easing of the curve that leaves it towards the next
/// key. Handed to ``Keyframes/setKeyframes(_:)``.
public struct Keyframe<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    private enum CodingKeys: String, CodingKey {
        case time, value, easing
    }

    /// The composition time of the key (exact).
    public var time: MediaTime
    /// The parameter's value at ``time`` (unit of the parameter: linear gain, opacity 0...1, pixels, …).
    public var value: Value
    /// The curve from this key to the next one; ignored on the last key.
    public var easing: Easing

    /// A key of `value` at `time`, leaving towards the next key with `easing`.
    public init(time: MediaTime, value: Value, easing: Easing = .linear) {
        self.time = time
        self.value = value
        self.easing = easing
    }

    /// Decodes `{"time": …, "value": …, "easing": …}`; `easing` may be left out (linear).
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            time: try container.decode(MediaTime.self, forKey: .time),
            value: try container.decode(Value.self, forKey: .value),
            easing: try container.decodeIfPresent(Easing.self, forKey: .easing) ?? .linear)
    }
}
