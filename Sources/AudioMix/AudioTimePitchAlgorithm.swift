/// How a speed-changed (scaled) audio segment is stretched, as AVFoundation's `AVAudioTimePitchAlgorithm`.
public enum AudioTimePitchAlgorithm: String, Sendable, Hashable, Codable, CaseIterable {
    /// High-quality time stretch that keeps the pitch (music and speech); Splice's default, as AVFoundation's on
    /// macOS. Rendered with FFmpeg's tempo filter.
    case spectral
    /// Cheaper time stretch that keeps the pitch, tuned for speech (AVFoundation's `timeDomain`). Splice renders
    /// it with the same tempo filter as ``spectral``.
    case timeDomain
    /// Resampling: pitch rises and falls with speed, like a tape played faster or slower (AVFoundation's
    /// `varispeed`).
    case varispeed
}
