import Composition

/// How one composition audio track is mixed: its volume over time and how speed changes are rendered, as
/// AVFoundation's `AVMutableAudioMixInputParameters`.
///
/// **Volume** is a linear gain (1.0 = unity, 0.5 ≈ −6 dB, 0 = silence; above 1 amplifies). As AVFoundation: 1.0
/// before the first value set; after the last value set, it holds; ramps are linear in time, their start value
/// applies from the ramp's start and their end value holds at and after its end; a value set at a time wins from
/// that time. Easing and keyframes are Splice additions. See ``Keyframes`` for the full rules.
public struct AudioMixInputParameters: Sendable, Hashable {
    /// The composition audio track these parameters apply to (AVFoundation's `trackID`).
    public var trackID: Int32
    /// The volume's values and ramps (linear gain); default 1.0.
    public var volumes: Keyframes<Double>
    /// How speed-changed segments of the track are stretched; ``AudioTimePitchAlgorithm/spectral`` by default.
    public var audioTimePitchAlgorithm: AudioTimePitchAlgorithm

    /// Parameters for `trackID` with nothing set: volume 1.0 throughout, spectral time stretch.
    public init(trackID: Int32, audioTimePitchAlgorithm: AudioTimePitchAlgorithm = .spectral) {
        self.trackID = trackID
        self.volumes = Keyframes()
        self.audioTimePitchAlgorithm = audioTimePitchAlgorithm
    }

    /// Sets the volume (linear gain) from `time` on, as AVFoundation's `setVolume(_:at:)`.
    ///
    /// - Parameters:
    ///   - volume: linear gain ≥ 0 (validation reports negative or non-finite values).
    ///   - time: composition time; must be numeric.
    public mutating func setVolume(_ volume: Double, at time: MediaTime) {
        volumes.setValue(volume, at: time)
    }

    /// Ramps the volume (linear gain) over `timeRange`, as AVFoundation's
    /// `setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)`.
    ///
    /// - Parameters:
    ///   - startVolume: the gain at `timeRange.start` (applies from there, not before).
    ///   - endVolume: the gain at `timeRange.end`, held afterwards.
    ///   - timeRange: composition time; a positive duration (validation reports others).
    ///   - easing: the curve; linear as AVFoundation.
    public mutating func setVolumeRamp(
        fromStartVolume startVolume: Double, toEndVolume endVolume: Double, timeRange: TimeRange, easing: Easing = .linear
    ) {
        volumes.setRamp(from: startVolume, to: endVolume, timeRange: timeRange, easing: easing)
    }

    /// Adds a volume curve through `keyframes` (linear gains; see ``Keyframes/setKeyframes(_:)``).
    public mutating func setVolume(keyframes: [Keyframe<Double>]) {
        volumes.setKeyframes(keyframes)
    }

    /// The volume (linear gain) at composition time `time`; 1.0 before the first value.
    public func volume(at time: MediaTime) -> Double {
        volumes.value(at: time, default: 1)
    }

    /// The volume curve over `range` as exact pieces that tile it, for the renderer: constant pieces (adjacent equal
    /// gains merged) and ramping pieces (`startValue` → `endValue` linear for ``Easing/linear``; evaluate
    /// `ramp` for other easings). See ``Keyframes/segments(in:default:interpolate:)``.
    ///
    /// - Parameter range: composition time with a numeric start; an empty or unusable range gives no pieces.
    public func volumeSegments(in range: TimeRange) -> [KeyframeSegment<Double>] {
        volumes.segments(in: range, default: 1)
    }

    /// True when the volume is the same over all of `range`, so the renderer can apply one fixed gain.
    public func isVolumeConstant(in range: TimeRange) -> Bool {
        volumes.isConstant(in: range, default: 1)
    }
}

extension AudioMixInputParameters: Codable {
    private enum CodingKeys: String, CodingKey {
        case trackID, volume, audioTimePitchAlgorithm
    }

    /// Decodes `{"trackID": 2, "volume": [...], "audioTimePitchAlgorithm": "spectral"}`; only `trackID` is required.
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            trackID: try container.decode(Int32.self, forKey: .trackID),
            audioTimePitchAlgorithm:
                try container.decodeIfPresent(AudioTimePitchAlgorithm.self, forKey: .audioTimePitchAlgorithm) ?? .spectral)
        volumes = try container.decodeIfPresent(Keyframes<Double>.self, forKey: .volume) ?? Keyframes()
    }

    /// Encodes the track ID, the time-pitch algorithm and the volume entries (when there are any).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(trackID, forKey: .trackID)
        if !volumes.isEmpty { try container.encode(volumes, forKey: .volume) }
        try container.encode(audioTimePitchAlgorithm, forKey: .audioTimePitchAlgorithm)
    }
}
