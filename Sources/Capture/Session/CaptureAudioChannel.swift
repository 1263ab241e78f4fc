import SpliceFFmpeg

/// One channel of sound flowing through an audio ``CaptureConnection``, with its levels (AVFoundation's
/// `AVCaptureAudioChannel`): poll ``averagePowerLevel`` and ``peakHoldLevel`` while the session runs, for a meter.
///
/// AVFoundation calls them "instantaneous average power" and "peak/hold level" in decibels without saying more;
/// here they are exactly:
/// - ``averagePowerLevel``: the RMS level of the channel's last complete **100 ms block of samples** (4800 samples at
///   48 kHz), 10·log₁₀(mean of the squared samples) dBFS, so a full-scale sine reads −3.01 dBFS and a sine of
///   amplitude 0.5 reads −9.03 dBFS. Updated every 100 ms of sound.
/// - ``peakHoldLevel``: the largest absolute sample, 20·log₁₀|x| dBFS. A new peak at or above the held one replaces
///   it at once; the held peak stays for **1 s** of sound, then falls at **20 dB/s** until it meets the block peaks
///   again (a sine of amplitude 0.5 holds at −6.02 dBFS).
///
/// Both are dBFS (0 = full scale, ±1.0 in float samples, 32767 in 16 bits), never above 0 for integer formats, and
/// −160 dBFS (AVFoundation's meter floor) for digital silence and before the first 100 ms have been read. Time is
/// counted in samples read from the device, not on the wall clock, so a slow machine meters the same sound the same
/// way. The levels are of the device's sound as the session reads it, whether or not a recording is under way; they
/// keep their last values after the session stops. Safe to read from any thread.
public final class CaptureAudioChannel: Sendable {
    private let meter = Locked(AudioLevelMeter())
    private let gain = Locked<Float>(1)

    init() {}

    /// The channel's volume, a linear gain from 0 (silence) to 1 (unchanged, the default), applied to the sound
    /// the connection delivers (AVFoundation's `volume`, macOS): the samples a movie file output records and an
    /// audio data output hands on, and the levels metered here (so a volume of 0.5 reads 6.02 dB lower). Taken up
    /// at the next buffer of sound while the session runs (a step, not a ramp). Set with ``setVolume(_:)``.
    public var volume: Float { gain.withLock { $0 } }

    /// Sets ``volume`` (AVFoundation's settable `volume`; a method here because a Swift setter cannot throw).
    /// - Parameter volume: linear gain, 0…1 (0.5 is −6.02 dB).
    /// - Throws: ``CaptureAudioChannelError/volumeOutOfRange(_:)`` for a value outside 0…1 or NaN (the volume stays).
    public func setVolume(_ volume: Float) throws(CaptureAudioChannelError) {
        guard volume >= 0, volume <= 1 else { throw .volumeOutOfRange(volume) }
        gain.withLock { $0 = volume }
    }

    /// The RMS level of the last 100 ms of the channel's sound, dBFS (−160 for silence or nothing read yet).
    public var averagePowerLevel: Float { meter.withLock { $0.averagePowerLevel } }

    /// The held peak level, dBFS: a peak is held 1 s of sound, then falls at 20 dB/s (−160 for silence).
    public var peakHoldLevel: Float { meter.withLock { $0.peakHoldLevel } }

    /// Samples metered so far (tests wait on it).
    var meteredSampleCount: Int { meter.withLock { $0.meteredSampleCount } }

    /// Starts or stops metering (``CaptureConnection/isEnabled``): stopped, the levels read −160 dBFS at once and
    /// buffers still in flight are not metered (the same lock as ``measure(_:sampleRate:)``); started again, metering
    /// begins afresh.
    func setMetering(_ isMetering: Bool) {
        meter.withLock { meter in
            guard meter.isSuspended == isMetering else { return }
            meter = AudioLevelMeter()
            meter.isSuspended = !isMetering
        }
    }

    /// Meters `samples` (linear, ±1.0 full scale, before ``volume``) read at `sampleRate` Hz; called by the
    /// session's thread.
    func measure(_ samples: [Float], sampleRate: Int) {
        let volume = self.volume
        let scaled = volume == 1 ? samples : samples.map { $0 * volume }
        meter.withLock { $0.add(scaled, sampleRate: sampleRate) }
    }
}
