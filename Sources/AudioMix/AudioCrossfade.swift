import Composition

/// A crossfade between two audio tracks over a time range, the sound of a transition: the outgoing track fades
/// out along `fadeOutCurve` while the incoming one fades in along `curve`, as FFmpeg's `acrossfade` (`c1`, `c2`)
/// but on the composition's own timeline. Outside the range both tracks play at their mix volume.
///
/// The gains multiply the tracks' ``AudioMixInputParameters`` volumes. The fraction of the fade is counted in output
/// samples, `(i − first) / count` for the range's samples `[first, first + count)`, as `afade` counts
/// `index / range`, and each sample gets its own gain (no block interpolation), so the curve is exact.
public struct AudioCrossfade: Sendable, Hashable {
    /// The track that fades out.
    public var fromTrackID: Int32
    /// The track that fades in.
    public var toTrackID: Int32
    /// Composition time of the crossfade (usually a video transition's range).
    public var timeRange: TimeRange
    /// The incoming track's fade-in curve.
    public var curve: AudioFadeCurve
    /// The outgoing track's curve, applied as `gain(1 − f)`; nil uses ``curve`` (the symmetric crossfade).
    public var fadeOutCurve: AudioFadeCurve?

    /// A crossfade.
    ///
    /// - Parameters:
    ///   - fromTrackID: the outgoing track.
    ///   - toTrackID: the incoming track.
    ///   - timeRange: composition time; a positive duration (validation reports others).
    ///   - curve: the fade-in curve; ``AudioFadeCurve/equalPower`` by default.
    ///   - fadeOutCurve: the fade-out curve, nil for `curve`.
    public init(from fromTrackID: Int32, to toTrackID: Int32, timeRange: TimeRange,
                curve: AudioFadeCurve = .equalPower, fadeOutCurve: AudioFadeCurve? = nil) {
        self.fromTrackID = fromTrackID
        self.toTrackID = toTrackID
        self.timeRange = timeRange
        self.curve = curve
        self.fadeOutCurve = fadeOutCurve
    }

    /// The gain (linear) the crossfade applies to `trackID` after the fraction `fraction` (0…1) of it: the
    /// incoming track's `curve.gain(f)`, the outgoing track's `fadeOutCurve.gain(1 − f)`; nil for another track.
    public func gain(forTrackID trackID: Int32, fraction: Double) -> Double? {
        if trackID == toTrackID { return curve.gain(fraction) }
        if trackID == fromTrackID { return (fadeOutCurve ?? curve).gain(1 - fraction) }
        return nil
    }
}

extension AudioCrossfade: Codable {
    private enum CodingKeys: String, CodingKey {
        case fromTrackID, toTrackID, timeRange, curve, fadeOutCurve
    }

    /// Decodes `{"fromTrackID": 2, "toTrackID": 3, "timeRange": …, "curve": "equalPower", "fadeOutCurve": "tri"}`;
    /// `curve` (equal power) and `fadeOutCurve` may be left out.
    ///
    /// - Throws: `DecodingError` naming the missing key or the unknown curve.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            from: try container.decode(Int32.self, forKey: .fromTrackID),
            to: try container.decode(Int32.self, forKey: .toTrackID),
            timeRange: try container.decode(TimeRange.self, forKey: .timeRange),
            curve: try container.decodeIfPresent(AudioFadeCurve.self, forKey: .curve) ?? .equalPower,
            fadeOutCurve: try container.decodeIfPresent(AudioFadeCurve.self, forKey: .fadeOutCurve))
    }

    /// Encodes every field (`fadeOutCurve` only when set).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fromTrackID, forKey: .fromTrackID)
        try container.encode(toTrackID, forKey: .toTrackID)
        try container.encode(timeRange, forKey: .timeRange)
        try container.encode(curve, forKey: .curve)
        try container.encodeIfPresent(fadeOutCurve, forKey: .fadeOutCurve)
    }
}
