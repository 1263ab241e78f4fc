import Export
import Foundation

extension AdaptiveBitrateLadder {
    /// A ladder written as `splice export --ladder` and a document's `export.package.ladder` write it: rungs
    /// `HEIGHT:RATE[:CODEC]` separated by commas, the height optionally followed by `p`, the rate in bits per second
    /// with an optional `k` (× 1000) or `M` (× 1 000 000) suffix, the codec `h264` (the default) or `hevc`:
    /// `720p:3M,720p:2M:hevc,480p:1200k`.
    ///
    /// Only the syntax is checked here; ``validate()`` checks the values (an odd height, a rate below 1 kb/s).
    /// - Throws: ``PackagingError/invalidRendition(index:reason:)`` naming the first rung (from 0) that is not
    ///   `HEIGHT:RATE[:CODEC]`, and ``PackagingError/emptyLadder`` for a text without a rung.
    public init(parsing text: String) throws(PackagingError) {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyLadder }
        var renditions: [Rendition] = []
        for (index, item) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let rung = item.trimmingCharacters(in: .whitespaces)
            guard let rendition = Self.rendition(parsing: rung) else {
                throw .invalidRendition(index: index, reason: "'\(rung)' is not HEIGHT:RATE[:CODEC] (e.g. 720p:3M, 480:1200k, 720p:2M:hevc)")
            }
            renditions.append(rendition)
        }
        self.init(renditions: renditions)
    }

    /// The ladder in the syntax ``init(parsing:)`` reads: `720p:3000k,480p:1200k,720p:2000k:hevc` (rates in kb/s
    /// when they are whole thousands, else in b/s).
    public var text: String {
        renditions.map { rendition in
            let rate = rendition.bitRate % 1000 == 0 ? "\(rendition.bitRate / 1000)k" : "\(rendition.bitRate)"
            return "\(rendition.height)p:\(rate)" + (rendition.codec == .h264 ? "" : ":\(rendition.codec.rawValue)")
        }.joined(separator: ",")
    }

    private static func rendition(parsing rung: String) -> Rendition? {
        let parts = rung.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let heightText = parts[0].hasSuffix("p") ? parts[0].dropLast() : parts[0]
        guard let height = Int(heightText), let rate = bitRate(parsing: String(parts[1])) else { return nil }
        let codec: VideoSettings.Codec
        if parts.count == 3 {
            guard let named = VideoSettings.Codec(rawValue: String(parts[2])) else { return nil }
            codec = named
        } else {
            codec = .h264
        }
        return Rendition(height: height, bitRate: rate, codec: codec)
    }

    private static func bitRate(parsing text: String) -> Int? {
        let multipliers: [Character: Double] = ["k": 1_000, "K": 1_000, "M": 1_000_000, "m": 1_000_000]
        var number = Substring(text), multiplier = 1.0
        if let last = text.last, let scale = multipliers[last] {
            number = text.dropLast()
            multiplier = scale
        }
        guard let value = Double(number), value.isFinite, abs(value * multiplier) < 1e15 else { return nil }
        return Int((value * multiplier).rounded())
    }
}

extension AdaptiveBitrateLadder: Codable {
    /// Decodes the ladder from its text (``init(parsing:)``: `"720p:3M,480p:1200k"`) or from an array of rungs in
    /// that syntax (`["720p:3M", "480p:1200k"]`).
    /// - Throws: `DecodingError.dataCorrupted` with the ``PackagingError`` in words for text that does not parse.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        if let rungs = try? container.decode([String].self) {
            text = rungs.joined(separator: ",")
        } else {
            text = try container.decode(String.self)
        }
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    /// Encodes the ladder as its ``text``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
