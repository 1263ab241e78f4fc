/// Why a setting of a ``CaptureAudioChannel`` was refused. Each case names the value.
public enum CaptureAudioChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A volume outside 0…1 (linear gain), or not a number: AVFoundation's `AVCaptureAudioChannel.volume` takes
    /// 0.0 to 1.0 (it raises an exception for others; here they are a typed error and the volume stays).
    case volumeOutOfRange(Float)

    /// A sentence naming the value.
    public var description: String {
        switch self {
        case .volumeOutOfRange(let volume): return "volume \(volume) is outside 0…1 (a linear gain)"
        }
    }
}
