import Foundation

/// A loudness target for an export's audio mix (EBU R128 / ITU-R BS.1770-4): an integrated loudness and a true-peak
/// ceiling, reached in two passes — the rendered mix is measured, then one linear gain is applied through the
/// export's own audio mix (every track's volume times the same factor), so the programme's dynamics are untouched.
///
/// A gain that would push the true peak above the ceiling is refused
/// (``LoudnessError/truePeakAboveCeiling(truePeak:gain:ceiling:)``) unless ``usesTruePeakLimiter`` is set: the
/// programme's dynamics are never changed behind the caller's back. With it, and only when the gain needs it, a
/// true-peak limiter holds the mix's peaks under the ceiling (libavfilter's `alimiter` on the sound oversampled 4×,
/// as BS.1770-4 measures true peak, its limit ``limiterHeadroom`` dB under the ceiling for the resampler's
/// overshoot); it takes the peaks down, so the programme ends slightly quieter than the target when it works hard.
///
/// ```json
/// "export": { "loudness": { "integratedLoudness": -16, "truePeakCeiling": -1, "usesTruePeakLimiter": true } }
/// ```
public struct LoudnessNormalization: Sendable, Hashable, Codable {
    /// R128's absolute gate in LUFS: blocks at or below it are not counted, and a target must lie above it.
    public static let absoluteGate = -70.0

    /// The integrated loudness to reach, in LUFS (−70…0). −23 by default (EBU R128 broadcast); −16 is common for
    /// streaming and podcasts, −14 for music services.
    public var integratedLoudness: Double
    /// The highest true peak allowed in the output, in dBTP (−70…0); −1 by default (EBU R128 s1 for delivery).
    public var truePeakCeiling: Double
    /// Hold the peaks under the ceiling with a limiter when the gain alone would pass it; false by default (such a
    /// gain is refused).
    public var usesTruePeakLimiter: Bool

    /// dB between the ceiling and the limiter's limit: the 4× resampling back to the output rate overshoots a
    /// limited peak by up to about 0.2 dB.
    public static let limiterHeadroom = 0.5

    /// A target of `integratedLoudness` LUFS with peaks at most `truePeakCeiling` dBTP.
    public init(integratedLoudness: Double = -23, truePeakCeiling: Double = -1, usesTruePeakLimiter: Bool = false) {
        self.integratedLoudness = integratedLoudness
        self.truePeakCeiling = truePeakCeiling
        self.usesTruePeakLimiter = usesTruePeakLimiter
    }

    private enum CodingKeys: String, CodingKey { case integratedLoudness, truePeakCeiling, usesTruePeakLimiter }

    /// Decodes `{"integratedLoudness": -16, "truePeakCeiling": -1, "usesTruePeakLimiter": false}`; only
    /// `integratedLoudness` is required.
    /// - Throws: `DecodingError` naming the missing or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(integratedLoudness: try container.decode(Double.self, forKey: .integratedLoudness),
                  truePeakCeiling: try container.decodeIfPresent(Double.self, forKey: .truePeakCeiling) ?? -1,
                  usesTruePeakLimiter: try container.decodeIfPresent(Bool.self, forKey: .usesTruePeakLimiter) ?? false)
    }

    /// Checks the target and the ceiling.
    /// - Throws: ``LoudnessError/targetOutOfRange(_:)`` for a target outside −70…0 LUFS (or not a number),
    ///   ``LoudnessError/ceilingOutOfRange(_:)`` for a ceiling outside −70…0 dBTP.
    public func validate() throws(LoudnessError) {
        guard integratedLoudness >= Self.absoluteGate, integratedLoudness <= 0 else { throw .targetOutOfRange(integratedLoudness) }
        guard truePeakCeiling >= Self.absoluteGate, truePeakCeiling <= 0 else { throw .ceilingOutOfRange(truePeakCeiling) }
    }

    /// The gain in dB that moves a measured programme's integrated loudness to the target, and whether the limiter
    /// must hold the peaks.
    /// - Throws: ``LoudnessError/silentProgramme(integratedLoudness:)`` when nothing passed the gate;
    ///   ``LoudnessError/truePeakAboveCeiling(truePeak:gain:ceiling:)`` when the peaks would pass the ceiling and
    ///   ``usesTruePeakLimiter`` is not set; the range errors of ``validate()``.
    public func gain(for measurement: LoudnessMeasurement) throws(LoudnessError) -> (gain: Double, needsLimiter: Bool) {
        try validate()
        guard !measurement.isSilent else { throw .silentProgramme(integratedLoudness: measurement.integratedLoudness) }
        let gain = integratedLoudness - measurement.integratedLoudness
        guard measurement.truePeak + gain > truePeakCeiling else { return (gain, false) }
        guard usesTruePeakLimiter else {
            throw .truePeakAboveCeiling(truePeak: measurement.truePeak, gain: gain, ceiling: truePeakCeiling)
        }
        return (gain, true)
    }
}
