/// Decoded or generated sound, as AVFoundation's `AudioBufferList` of linear PCM: interleaved samples of one
/// format at one rate.
///
/// Owns its bytes: `frameCount × channelCount` samples, channel 0 first within each sample frame.
public struct AudioBuffer: Sendable, Hashable {
    /// The encoding of one sample.
    public enum SampleFormat: String, Sendable, Hashable, CaseIterable {
        /// 32-bit IEEE float, full scale ±1.0 (`kAudioFormatFlagIsFloat`; FFmpeg `flt`).
        case float32
        /// 16-bit signed integer, full scale ±32768 (FFmpeg `s16`).
        case int16

        /// Bytes per sample.
        public var bytesPerSample: Int { self == .float32 ? 4 : 2 }
        /// FFmpeg's name of the interleaved format.
        var ffmpegName: String { self == .float32 ? "flt" : "s16" }
    }

    public var sampleFormat: SampleFormat
    /// Samples per second per channel, Hz.
    public var sampleRate: Int
    /// Channels (FFmpeg's default layout for the count: 1 mono, 2 stereo, …).
    public var channelCount: Int
    /// Sample frames (samples per channel).
    public var frameCount: Int
    /// The interleaved samples, little-endian: `frameCount × channelCount × sampleFormat.bytesPerSample` bytes.
    public var bytes: [UInt8]

    /// A buffer of the given samples.
    public init(sampleFormat: SampleFormat, sampleRate: Int, channelCount: Int, bytes: [UInt8]) {
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.bytes = bytes
        let frameBytes = max(1, channelCount * sampleFormat.bytesPerSample)
        frameCount = bytes.count / frameBytes
    }

    /// A Float32 buffer of `samples` (interleaved, ±1.0 full scale).
    public init(float32 samples: [Float], sampleRate: Int, channelCount: Int) {
        let bytes = samples.withUnsafeBytes { Array($0) }
        self.init(sampleFormat: .float32, sampleRate: sampleRate, channelCount: channelCount, bytes: bytes)
    }

    /// The samples as Float32 (interleaved, ±1.0 full scale; Int16 samples divided by 32768).
    public var floatSamples: [Float] {
        bytes.withUnsafeBytes { raw in
            switch sampleFormat {
            case .float32: return Array(raw.bindMemory(to: Float.self))
            case .int16: return raw.bindMemory(to: Int16.self).map { Float($0) / 32_768 }
            }
        }
    }
}
