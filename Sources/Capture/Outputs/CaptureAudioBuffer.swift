import Composition

/// One buffer of sound from a ``CaptureAudioDataOutput`` (AVFoundation's audio `CMSampleBuffer`): linear PCM as
/// 32-bit floats, one array per channel, stamped on the session clock.
public struct CaptureAudioBuffer: Sendable, Hashable {
    /// When the buffer's first sample was taken, on the session clock (from the device's own timestamp;
    /// microsecond timescale).
    public let presentationTime: MediaTime
    /// Samples per second.
    public let sampleRate: Int
    /// The samples, `channels[c][i]` for channel `c` (0 = left) and sample `i`, full scale ±1.0.
    public let channels: [[Float]]
    /// Buffers dropped before this one (always 0: audio is queued with back-pressure, see
    /// ``CaptureAudioDataOutput``).
    public internal(set) var droppedBufferCountBefore: Int

    init(presentationTime: MediaTime, sampleRate: Int, channels: [[Float]]) {
        self.presentationTime = presentationTime
        self.sampleRate = sampleRate
        self.channels = channels
        droppedBufferCountBefore = 0
    }

    /// Samples per channel.
    public var sampleCount: Int { channels.first?.count ?? 0 }
    /// The number of channels.
    public var channelCount: Int { channels.count }
    /// The buffer's length: ``sampleCount`` / ``sampleRate`` (exact).
    public var duration: MediaTime { MediaTime(value: Int64(sampleCount), timescale: Int32(max(sampleRate, 1))) }
}
