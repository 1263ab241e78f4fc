extension CaptureSession {
    /// The quality a session captures at (AVFoundation's `AVCaptureSession.Preset`); see
    /// ``CaptureDevice/format(for:)`` for the format each picks on a device.
    public enum Preset: String, Sendable, Hashable, Codable, CaseIterable {
        /// The largest picture that still reaches 24 fps.
        case high
        /// The largest picture at most 640 pixels wide reaching 24 fps.
        case medium
        /// The smallest picture.
        case low
        /// The largest picture at any frame rate.
        case photo
        /// Exactly 1920 × 1080 pixels.
        case hd1920x1080 = "1920x1080"
        /// Exactly 1280 × 720 pixels.
        case hd1280x720 = "1280x720"
        /// Exactly 640 × 480 pixels.
        case vga640x480 = "640x480"

        /// The picture size of the fixed-size presets, pixels; nil for the others.
        public var size: (width: Int, height: Int)? {
            switch self {
            case .hd1920x1080: return (1920, 1080)
            case .hd1280x720: return (1280, 720)
            case .vga640x480: return (640, 480)
            case .high, .medium, .low, .photo: return nil
            }
        }
    }

    /// What a session reports (AVFoundation's session notifications).
    public enum Event: Sendable {
        /// Every device opened; media flows (`AVCaptureSessionDidStartRunning`).
        case started
        /// The session stopped (`AVCaptureSessionDidStopRunning`).
        case stopped
        /// A device stopped delivering: its ID (`AVCaptureSessionWasInterrupted` with the reason).
        case interrupted(deviceID: String)
        /// An error stopped the session (`AVCaptureSessionRuntimeError`).
        case runtimeError(CaptureDeviceError)
    }
}
