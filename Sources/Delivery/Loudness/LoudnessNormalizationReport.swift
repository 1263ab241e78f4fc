/// What a loudness-normalised export did: the rendered mix as measured before the gain, and the gain applied.
public struct LoudnessNormalizationReport: Sendable, Hashable, Codable {
    /// The export's rendered audio mix, measured before normalisation.
    public var measured: LoudnessMeasurement
    /// The linear gain applied to the whole mix, in dB (target − measured integrated loudness).
    public var gain: Double
    /// The true peak expected in the output, in dBTP: the measured peak plus the gain.
    public var expectedTruePeak: Double { measured.truePeak + gain }

    /// A report of a gain (dB) applied to a mix measured as `measured`.
    public init(measured: LoudnessMeasurement, gain: Double) {
        self.measured = measured
        self.gain = gain
    }
}
