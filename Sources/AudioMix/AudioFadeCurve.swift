import Foundation

/// The gain curve of a fade or a crossfade: ``linear``, ``equalPower`` and FFmpeg's `afade`/`acrossfade` curves by
/// their own names (libavfilter 8.44, `af_afade.c`'s `fade_gain`).
///
/// ``gain(_:)`` is the fade-in gain after the fraction `f` (0…1) of the fade; a fade-out uses `gain(1 − f)`, as
/// `acrossfade` does, so with ``equalPower`` the two gains are `sin(πf/2)` and `cos(πf/2)` and their powers sum to 1
/// (constant loudness for uncorrelated sounds), while ``linear`` keeps their amplitudes summing to 1 (constant level
/// for identical sounds, a 3 dB dip midway for different ones).
public enum AudioFadeCurve: String, Sendable, Hashable, Codable, CaseIterable {
    /// `f` (the same as `tri`).
    case linear
    /// `sin(πf/2)` (the same as `qsin`): constant power.
    case equalPower
    /// `afade` `tri`: `f`.
    case tri
    /// `afade` `qsin`: `sin(πf/2)`.
    case qsin
    /// `afade` `esin`: `1 − cos(π/4·((2f − 1)³ + 1))`.
    case esin
    /// `afade` `hsin`: `(1 − cos(πf))/2`.
    case hsin
    /// `afade` `log`: `1 + 0.2·log10(f)`, clipped to 0…1.
    case log
    /// `afade` `ipar`: `1 − (1 − f)²`.
    case ipar
    /// `afade` `qua`: `f²`.
    case qua
    /// `afade` `cub`: `f³`.
    case cub
    /// `afade` `squ`: `√f`.
    case squ
    /// `afade` `cbr`: `∛f`.
    case cbr
    /// `afade` `par`: `1 − √(1 − f)`.
    case par
    /// `afade` `exp`: `exp(5·ln(0.1)·(1 − f))` (−100 dB at the start).
    case exp
    /// `afade` `iqsin`: `(2/π)·asin(f)`.
    case iqsin
    /// `afade` `ihsin`: `(1/π)·acos(1 − 2f)`.
    case ihsin
    /// `afade` `dese`: double-exponential seat.
    case dese
    /// `afade` `desi`: double-exponential sigmoid.
    case desi
    /// `afade` `losi`: logistic sigmoid.
    case losi
    /// `afade` `sinc`: `sin(π(1 − f))/(π(1 − f))`.
    case sinc
    /// `afade` `isinc`: `1 − sin(πf)/(πf)`.
    case isinc

    /// The fade-in gain (linear, 0…1) after the fraction `fraction` of the fade, clipped to 0…1 first as `afade`
    /// does. Exactly 0 at 0 for every curve but ``exp`` (1e−5, −100 dB) and ``sinc``; 1 at 1.
    public func gain(_ fraction: Double) -> Double {
        let f = min(1, max(0, fraction))
        func cube(_ v: Double) -> Double { v * v * v }
        switch self {
        case .linear, .tri: return f
        case .equalPower, .qsin: return sin(f * .pi / 2)
        case .esin: return 1 - cos(.pi / 4 * (cube(2 * f - 1) + 1))
        case .hsin: return (1 - cos(f * .pi)) / 2
        case .log: return min(1, max(0, 1 + 0.2 * log10(f)))
        case .ipar: return 1 - (1 - f) * (1 - f)
        case .qua: return f * f
        case .cub: return cube(f)
        case .squ: return f.squareRoot()
        case .cbr: return cbrt(f)
        case .par: return 1 - (1 - f).squareRoot()
        case .exp: return Foundation.exp(-11.512925464970227 * (1 - f))
        case .iqsin: return 0.6366197723675814 * asin(f)
        case .ihsin: return 0.3183098861837907 * acos(1 - 2 * f)
        case .dese: return f <= 0.5 ? cbrt(2 * f) / 2 : 1 - cbrt(2 * (1 - f)) / 2
        case .desi: return f <= 0.5 ? cube(2 * f) / 2 : 1 - cube(2 * (1 - f)) / 2
        case .losi:
            let a = 1 / (1 - 0.787) - 1
            let value = 1 / (1 + Foundation.exp(-((f - 0.5) * a * 2)))
            let low = 1 / (1 + Foundation.exp(a)), high = 1 / (1 + Foundation.exp(-a))
            return (value - low) / (high - low)
        case .sinc: return f >= 1 ? 1 : sin(.pi * (1 - f)) / (.pi * (1 - f))
        case .isinc: return f <= 0 ? 0 : 1 - sin(.pi * f) / (.pi * f)
        }
    }
}
