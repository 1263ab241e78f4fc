extension CaptureSession {
    /// The quality a session captures at (AVFoundation's `AVCaptureSession.Preset`); see
    /// ``CaptureDevice/format(for:)`` for the format each picks on a device.
    public enum Preset: String, Sendable, Hashable, Codable, CaseIterable {
        case high, medium, low, photo
        case hd1920x1080 = "1920x1080"
        case hd1280x720 = "1280x720"
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
