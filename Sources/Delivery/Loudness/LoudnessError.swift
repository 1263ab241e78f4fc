import Foundation

/// Why a loudness measurement or normalisation was refused or failed.
public enum LoudnessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or the export) has no sound to measure.
    case noAudio(URL)
    /// The file could not be read or decoded: the file and FFmpeg's reason.
    case unreadable(URL, reason: String)
    /// The programme never rises above R128's absolute gate (−70 LUFS): a gain to any target would be unbounded.
    case silentProgramme(integratedLoudness: Double)
    /// The integrated target is outside −70…0 LUFS (below the gate nothing is measurable; above 0 is beyond full scale).
    case targetOutOfRange(Double)
    /// The true-peak ceiling is outside −70…0 dBTP.
    case ceilingOutOfRange(Double)
    /// The gain that reaches the target would raise the true peak above the ceiling and no limiter was asked for: the
    /// measured true peak (dBTP), the gain (dB) and the ceiling (dBTP). Ask for the limiter, lower the target or raise
    /// the ceiling.
    case truePeakAboveCeiling(truePeak: Double, gain: Double, ceiling: Double)
    /// The export cannot carry a normalised mix: passthrough (no re-encode) or video-only settings.
    case exportHasNoAudioEncoding(String)
    /// The limiter is needed but the export renders its audio elsewhere (smart rendering, concurrent segments).
    case limiterUnavailable(String)

    /// The refusal in words, with the figures.
    public var description: String {
        func db(_ value: Double) -> String { value.isFinite ? String(format: "%.2f", value) : (value < 0 ? "-inf" : "inf") }
        switch self {
        case .noAudio(let url): return "\(url.path) has no audio stream to measure"
        case .unreadable(let url, let reason): return "\(url.path) cannot be measured: \(reason)"
        case .silentProgramme(let loudness):
            return "the programme is silent for EBU R128 (integrated loudness \(db(loudness)) LUFS, at or below the -70 LUFS gate): no gain can reach a target"
        case .targetOutOfRange(let target):
            return "the integrated loudness target \(db(target)) LUFS is outside -70…0 LUFS"
        case .ceilingOutOfRange(let ceiling):
            return "the true-peak ceiling \(db(ceiling)) dBTP is outside -70…0 dBTP"
        case .truePeakAboveCeiling(let peak, let gain, let ceiling):
            return "a gain of \(db(gain)) dB would raise the true peak from \(db(peak)) to \(db(peak + gain)) dBTP, above the "
                + "\(db(ceiling)) dBTP ceiling; ask for the true-peak limiter, lower the target or raise the ceiling"
        case .exportHasNoAudioEncoding(let why): return "loudness normalisation needs an export that encodes audio: \(why)"
        case .limiterUnavailable(let why): return "the true-peak limiter the gain needs cannot run: \(why)"
        }
    }
}
