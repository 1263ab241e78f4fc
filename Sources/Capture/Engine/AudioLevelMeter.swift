import Foundation

/// The level meter behind one ``CaptureAudioChannel``: gathers a channel's samples into 100 ms blocks of sample
/// time and, at the end of each block, publishes its RMS level and the held peak (see ``CaptureAudioChannel`` for
/// the rules). Timed by samples, never by the wall clock, so a starved machine meters the same values.
struct AudioLevelMeter: Sendable {
    /// The level of silence and of a channel not measured yet, dBFS (the floor AVFoundation's meters report).
    static let floor: Float = -160
    /// How long a peak is held before it falls, seconds of sample time.
    static let holdSeconds = 1.0
    /// How fast a held peak falls after the hold, dB per second of sample time.
    static let decayPerSecond = 20.0

    private(set) var averagePowerLevel = floor
    private(set) var peakHoldLevel = floor
    /// Samples metered so far, complete blocks and the one being gathered.
    private(set) var meteredSampleCount = 0
    /// True while the connection is disabled: ``add(_:sampleRate:)`` ignores samples.
    var isSuspended = false

    private var blockLength = 0
    private var blockSumOfSquares = 0.0
    private var blockPeak: Float = 0
    private var blockCount = 0
    private var samplesSincePeak = 0

    /// Adds `samples` (linear, full scale ±1.0) taken at `sampleRate` Hz.
    mutating func add(_ samples: [Float], sampleRate: Int) {
        guard sampleRate > 0, !isSuspended else { return }
        blockLength = max(1, sampleRate / 10)
        for sample in samples {
            blockSumOfSquares += Double(sample) * Double(sample)
            blockPeak = max(blockPeak, abs(sample))
            blockCount += 1
            if blockCount == blockLength { endBlock(sampleRate: sampleRate) }
        }
        meteredSampleCount += samples.count
    }

    private mutating func endBlock(sampleRate: Int) {
        averagePowerLevel = Self.decibels(power: blockSumOfSquares / Double(blockCount))
        let peak = Self.decibels(power: Double(blockPeak) * Double(blockPeak))
        if peak >= peakHoldLevel {
            peakHoldLevel = peak
            samplesSincePeak = 0
        } else {
            // Counted in samples, so the hold ends exactly 1 s of sound after the peak.
            let hold = Int(Self.holdSeconds * Double(sampleRate))
            let falling = max(0, samplesSincePeak + blockCount - hold) - max(0, samplesSincePeak - hold)
            samplesSincePeak += blockCount
            peakHoldLevel = max(peak, peakHoldLevel - Float(Double(falling) / Double(sampleRate) * Self.decayPerSecond))
        }
        blockSumOfSquares = 0
        blockPeak = 0
        blockCount = 0
    }

    /// 10·log₁₀(`power`) dBFS, no lower than ``floor`` (power 0 is silence, not −∞).
    static func decibels(power: Double) -> Float {
        guard power > 0 else { return floor }
        return max(floor, Float(10 * log10(power)))
    }
}
