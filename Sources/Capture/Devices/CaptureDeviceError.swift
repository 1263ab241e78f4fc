/// Why a device could not be found, configured or opened. Each case names the device (its ``CaptureDevice/uniqueID``).
public enum CaptureDeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A configuration change was made without ``CaptureDevice/lockForConfiguration()`` (AVFoundation raises
    /// `NSGenericException` there).
    case notLockedForConfiguration(String)
    /// The device has no such feature (a focus mode, a torch, zoom): the `is…Supported` query answers false.
    case unsupported(device: String, feature: String)
    /// A value outside the device's range (`value` and the allowed range, in the feature's unit).
    case outOfRange(device: String, feature: String, value: Double, range: ClosedRange<Double>)
    /// The format is not one of the device's ``CaptureDevice/formats``.
    case unsupportedFormat(device: String, format: String)
    /// The device is gone (unplugged, its server stopped).
    case disconnected(String)
    /// The driver refused a control change (`VIDIOC_S_CTRL`), with the errno.
    case controlFailed(device: String, feature: String, errno: Int32)
    /// The device could not be opened or read (FFmpeg's message).
    case openFailed(device: String, reason: String)
    /// No device has that ID or name (what `splice devices` prints).
    case notFound(String)

    /// A sentence naming the device and the cause.
    public var description: String {
        switch self {
        case .notLockedForConfiguration(let id): return "\(id): configuration changed without lockForConfiguration()"
        case .unsupported(let id, let feature): return "\(id): \(feature) is not supported by this device"
        case .outOfRange(let id, let feature, let value, let range):
            return "\(id): \(feature) \(value) is outside \(range.lowerBound)…\(range.upperBound)"
        case .unsupportedFormat(let id, let format): return "\(id): \(format) is not one of the device's formats"
        case .disconnected(let id): return "\(id): the device was disconnected"
        case .controlFailed(let id, let feature, let errno): return "\(id): the driver refused \(feature) (errno \(errno))"
        case .openFailed(let id, let reason): return "\(id): could not be opened: \(reason)"
        case .notFound(let name): return "no capture device '\(name)' (see `splice devices`)"
        }
    }
}
