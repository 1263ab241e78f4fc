extension CaptureDevice {
    /// The kind of a device (AVFoundation's `AVCaptureDevice.DeviceType`, with the kinds Linux has).
    public enum DeviceType: String, Sendable, Hashable, Codable, CaseIterable {
        /// A camera built in or plugged in (V4L2 `VIDEO_CAPTURE` node).
        case camera
        /// A sound input: a microphone, a line input, or an audio server's source.
        case microphone
        /// An audio server's monitor of an output (what is being played), as a source.
        case audioMonitor
        /// A screen (an X11 display's screen, through x11grab).
        case screen
        /// Splice's virtual camera: a test pattern with optional flash markers (FFmpeg `lavfi`).
        case virtualCamera
        /// Splice's virtual microphone: a tone with optional beep markers (FFmpeg `lavfi`).
        case virtualMicrophone
    }

    /// Which way a camera faces (AVFoundation's `AVCaptureDevice.Position`): known only when the driver says so.
    public enum Position: String, Sendable, Hashable, Codable {
        /// Facing the user (V4L2 `V4L2_CAMERA_ORIENTATION_FRONT`).
        case front
        /// Facing away from the user (`V4L2_CAMERA_ORIENTATION_BACK`).
        case back
        /// The driver does not say (every UVC webcam, every non-camera device).
        case unspecified
    }
}
