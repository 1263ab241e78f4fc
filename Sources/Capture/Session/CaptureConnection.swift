import Composition
import SpliceFFmpeg

/// The link between one input's media and one output (AVFoundation's `AVCaptureConnection`): made by the session
/// when an output is added, one per media type the output takes and an input delivers.
public final class CaptureConnection: Sendable {
    /// The media type carried.
    public let mediaType: MediaType
    /// The device whose media is carried.
    public let inputDevice: CaptureDevice
    /// The channels of an audio connection, one per channel of the device's active format (left then right for
    /// stereo), with their levels updated while the session runs (AVFoundation's `audioChannels`); empty for video.
    /// See ``CaptureAudioChannel`` for the window and the peak hold.
    public let audioChannels: [CaptureAudioChannel]
    private let enabled = Locked(true)

    init(mediaType: MediaType, inputDevice: CaptureDevice) {
        self.mediaType = mediaType
        self.inputDevice = inputDevice
        let channelCount = mediaType == .audio ? max(0, inputDevice.activeFormat?.channelCount ?? 0) : 0
        audioChannels = (0..<channelCount).map { _ in CaptureAudioChannel() }
    }

    /// Meters one buffer of the device's sound into ``audioChannels`` (extra device channels are ignored).
    func meter(_ frame: Frame) {
        guard !audioChannels.isEmpty else { return }
        let rate = frame.sampleRate
        frame.forEachChannel { channel, samples in
            if channel < audioChannels.count { audioChannels[channel].measure(samples, sampleRate: rate) }
        }
    }

    /// True when media flows through the connection (default true); read when a recording starts.
    public var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }
}
