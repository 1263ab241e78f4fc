extension ExportPreset: Codable {
    /// The prefix of every preset's AVFoundation name, which decoding lets a writer leave out.
    private static let namePrefix = "AVAssetExportPreset"

    /// Decodes a preset by its AVFoundation name (`"AVAssetExportPresetHighestQuality"`) or by that name without the
    /// `AVAssetExportPreset` prefix (`"HighestQuality"`, `"1280x720"`).
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the text when it is neither.
    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let preset = ExportPreset(rawValue: name) ?? ExportPreset(rawValue: Self.namePrefix + name) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'\(name)' is not a preset: \(Self.allCases.map(\.shortName).joined(separator: ", ")) "
                    + "(the \(Self.namePrefix) prefix may be written or left out)")
        }
        self = preset
    }

    /// Encodes the full AVFoundation name (``rawValue``).
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The AVFoundation name without its prefix: `HighestQuality`, `1280x720`.
    private var shortName: String { String(rawValue.dropFirst(Self.namePrefix.count)) }
}
