/// Why a photo could not be taken. Each case names the cause.
public enum CapturePhotoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The output is not in a running session, or the session stopped before a frame came.
    case sessionNotRunning
    /// The session has no enabled video input for this output.
    case noVideoConnection
    /// The task waiting for the photo was cancelled before a frame came (the request was withdrawn).
    case cancelled
    /// The picture could not be converted or encoded: the format and FFmpeg's message.
    case encodingFailed(codec: CapturePhotoSettings.Codec, reason: String)

    /// A sentence naming the cause.
    public var description: String {
        switch self {
        case .sessionNotRunning: return "no photo: the session is not running (or stopped before the next frame)"
        case .noVideoConnection: return "no photo: the session has no enabled video input"
        case .cancelled: return "no photo: the request was cancelled before the next frame"
        case .encodingFailed(let codec, let reason): return "the \(codec.rawValue) photo could not be encoded: \(reason)"
        }
    }
}
