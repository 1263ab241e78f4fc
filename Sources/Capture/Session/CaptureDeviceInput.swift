/// A device as a session input (AVFoundation's `AVCaptureDeviceInput`).
public final class CaptureDeviceInput: Sendable {
    /// The device.
    public let device: CaptureDevice

    /// An input for `device`.
    /// - Throws: ``CaptureDeviceError/disconnected(_:)`` when the device has gone.
    public init(device: CaptureDevice) throws(CaptureDeviceError) {
        if device.state.withLock({ $0.isDisconnected }) { throw .disconnected(device.uniqueID) }
        self.device = device
    }
}
