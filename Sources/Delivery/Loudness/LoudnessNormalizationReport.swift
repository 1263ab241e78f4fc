/// What a loudness-normalised export did: the rendered mix as measured before the gain, and the gain applied.
public struct LoudnessNormalizationReport: Sendable, Hashable, Codable {
    /// The export's rendered audio mix, measured before normalisation.
    public var measured: LoudnessMeasurement
    /// The linear gain applied to the whole mix, in dB (target − measured integrated loudness).
    public var gain: Double
    /// The limit of the true-peak limiter in dBTP, when the gain needed one; nil when the gain alone kept the peaks
    /// under the ceiling.
    public var limiterLimit: Double?
    /// The true peak expected in the output, in dBTP: the measured peak plus the gain, or the limiter's limit.
    public var expectedTruePeak: Double { limiterLimit.map { min($0, measured.truePeak + gain) } ?? measured.truePeak + gain }

    /// A report of a gain (dB) applied to a mix measured as `measured`, with the limiter's limit (dBTP) if one ran.
    public init(measured: LoudnessMeasurement, gain: Double, limiterLimit: Double? = nil) {
        self.measured = measured
        self.gain = gain
        self.limiterLimit = limiterLimit
    }
}
