import Foundation

/// A programme's loudness as EBU R128 defines it (ITU-R BS.1770-4 K-weighting and gating), measured by libavfilter's
/// `ebur128` filter over a file's sound or an export's rendered mix.
public struct LoudnessMeasurement: Sendable, Hashable, Codable {
    /// Integrated (programme) loudness in LUFS, gated as BS.1770-4 says (absolute gate −70 LUFS, relative gate −10 LU).
    /// −70 or below means that no 400 ms block was louder than the absolute gate: the programme is silent for R128.
    public var integratedLoudness: Double
    /// Loudness range (EBU Tech 3342) in LU: the spread between the 10th and 95th percentiles of the gated
    /// short-term (3 s) loudness.
    public var loudnessRange: Double
    /// The highest true peak of any channel in dBTP (dB of full scale, measured 4× oversampled as BS.1770-4 Annex 2
    /// says). `-infinity` for digital silence. `ebur128` reports the linear peak to three decimals, so the figure is
    /// exact to about 0.01 dB near full scale and coarser for very quiet programmes (±0.09 dB at −20 dBTP).
    public var truePeak: Double

    /// A measurement with the given figures (LUFS, LU, dBTP).
    public init(integratedLoudness: Double, loudnessRange: Double, truePeak: Double) {
        self.integratedLoudness = integratedLoudness
        self.loudnessRange = loudnessRange
        self.truePeak = truePeak
    }

    /// True when no part of the programme passed R128's absolute gate (−70 LUFS): there is nothing to normalise.
    public var isSilent: Bool { !(integratedLoudness > LoudnessNormalization.absoluteGate) }
}
