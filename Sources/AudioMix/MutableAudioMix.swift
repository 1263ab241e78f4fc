import Composition

/// How a composition's audio tracks are mixed, as AVFoundation's `AVMutableAudioMix`.
///
/// Every enabled audio track of the composition is heard; tracks are mixed by summation, without automatic
/// normalisation (so a track's level never depends on how many others exist). A track without input parameters
/// plays at volume 1.0.
public struct MutableAudioMix: Sendable, Hashable {
    /// Per-track parameters, at most one per track.
    public var inputParameters: [AudioMixInputParameters]
    /// Crossfades between tracks (the sound of transitions); their gains multiply the tracks' volumes.
    public var crossfades: [AudioCrossfade]

    /// An audio mix without crossfades.
    public init(inputParameters: [AudioMixInputParameters] = []) {
        self.init(inputParameters: inputParameters, crossfades: [])
    }

    /// An audio mix with crossfades.
    public init(inputParameters: [AudioMixInputParameters], crossfades: [AudioCrossfade]) {
        self.inputParameters = inputParameters
        self.crossfades = crossfades
    }

    /// The parameters for `trackID` (the first, if several), or nil: the track then plays at 1.0.
    public func inputParameters(forTrackID trackID: Int32) -> AudioMixInputParameters? {
        inputParameters.first { $0.trackID == trackID }
    }

    /// The volume (linear gain) of `trackID` at composition time `time`: its parameters' volume, or 1.0.
    public func volume(forTrackID trackID: Int32, at time: MediaTime) -> Double {
        inputParameters(forTrackID: trackID)?.volume(at: time) ?? 1
    }
}

extension MutableAudioMix: Codable {
    private enum CodingKeys: String, CodingKey {
        case inputParameters, crossfades
    }

    /// Decodes `{"inputParameters": [...], "crossfades": [...]}`; either key may be left out.
    ///
    /// - Throws: `DecodingError` naming the malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(inputParameters: try container.decodeIfPresent([AudioMixInputParameters].self, forKey: .inputParameters) ?? [],
                  crossfades: try container.decodeIfPresent([AudioCrossfade].self, forKey: .crossfades) ?? [])
    }

    /// Encodes `{"inputParameters": [...]}` and, when there are any, `"crossfades"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(inputParameters, forKey: .inputParameters)
        if !crossfades.isEmpty { try container.encode(crossfades, forKey: .crossfades) }
    }
}
