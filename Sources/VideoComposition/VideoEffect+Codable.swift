import Composition
import Foundation

extension VideoEffect: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, value, keyframes, file
    }

    /// Decodes `{"type": "brightness", "value": 0.2}` (a constant from time 0), `{"type": "blur", "keyframes":
    /// [...]}` (entries as ``Keyframes``) or `{"type": "lookupTable", "file": "looks/warm.cube"}` (a path or a URL
    /// string; a relative path is resolved against the current directory, or the document's folder in a document).
    ///
    /// - Throws: `DecodingError` for an unknown type, a missing amount or file, or both `value` and `keyframes`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        if type == "lookupTable" {
            self = .lookupTable(URL(fileReference: try container.decode(String.self, forKey: .file)))
            return
        }
        guard let parameter = VideoEffectParameter(rawValue: type) else {
            let names = VideoEffectParameter.allCases.map(\.rawValue) + ["lookupTable"]
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "'\(type)' is not an effect: \(names.joined(separator: ", "))")
        }
        let value = try container.decodeIfPresent(Double.self, forKey: .value)
        let keyframes = try container.decodeIfPresent(Keyframes<Double>.self, forKey: .keyframes)
        switch (value, keyframes) {
        case (let value?, nil): self = .constant(parameter, value)
        case (nil, let keyframes?): self = .adjustment(parameter, keyframes)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .value, in: container, debugDescription: "a \(type) effect needs either 'value' or 'keyframes'")
        }
    }

    /// Encodes the forms ``init(from:)`` reads: a single value set at time 0 as `value`, other amounts as
    /// `keyframes`, a lookup table's URL as its absolute string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .lookupTable(let url):
            try container.encode("lookupTable", forKey: .type)
            try container.encode(url.absoluteString, forKey: .file)
        case .adjustment(let parameter, let keyframes):
            try container.encode(parameter.rawValue, forKey: .type)
            if keyframes.entries.count == 1, case .value(let value, let time) = keyframes.entries[0], time == .zero {
                try container.encode(value, forKey: .value)
            } else {
                try container.encode(keyframes, forKey: .keyframes)
            }
        }
    }
}
