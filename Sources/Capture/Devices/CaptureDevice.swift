import Composition
import SpliceFFmpeg

/// A device that captures pictures or sound, as AVFoundation's `AVCaptureDevice`: a camera (V4L2), a microphone or
/// an audio server's monitor (PulseAudio), a screen (X11), or a virtual test device (FFmpeg's `lavfi`).
///
/// Devices are found with ``DiscoverySession`` or ``default(for:)``; each has a stable ``uniqueID`` (a V4L2 camera's
/// comes from `/dev/v4l/by-id` or `/dev/v4l/by-path`, never `/dev/videoN`). Configuration — the active format,
/// focus, exposure, white balance, torch, zoom — changes only between ``lockForConfiguration()`` and
/// ``unlockForConfiguration()``; a change without the lock throws ``CaptureDeviceError/notLockedForConfiguration(_:)``
/// (AVFoundation raises an exception there). `is…Supported` answers come from the device's real controls.
///
/// `Sendable`: the configuration state is behind a mutex; the capture engine reads it when a session starts.
public final class CaptureDevice: Sendable, CustomStringConvertible {
    /// A stable identifier that survives re-plugging and reboots (`virtual:camera`, `pulse:vsink.monitor`,
    /// `x11:99.0`, `v4l2:usb-046d_HD_Pro_Webcam_C920_…-video-index0`).
    public let uniqueID: String
    /// The name to show a user ("HD Pro Webcam C920", "Monitor of Null Output").
    public let localizedName: String
    /// The driver or server's model description (V4L2 `driver`/`card`, `pulse`, `x11grab`, `lavfi`).
    public let modelID: String
    /// What kind of device this is.
    public let deviceType: DeviceType
    /// Front or back, only where the driver says so (V4L2's camera-orientation control); otherwise unspecified.
    public let position: Position
    /// True for Splice's virtual test devices (FFmpeg's `lavfi`): no hardware behind them.
    public let isVirtual: Bool
    /// The formats the device can deliver, in the order the device lists them.
    public let formats: [Format]
    /// The media types the device delivers.
    public let mediaTypes: Set<MediaType>

    /// How the engine opens the device.
    let source: CaptureSource
    /// The device's controls (V4L2), nil when it has none.
    let controls: V4L2Controls?
    let state: Locked<ConfigurationState>

    init(uniqueID: String, localizedName: String, modelID: String, deviceType: DeviceType, position: Position = .unspecified,
         isVirtual: Bool = false, formats: [Format], mediaTypes: Set<MediaType>, source: CaptureSource,
         controls: V4L2Controls? = nil) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.modelID = modelID
        self.deviceType = deviceType
        self.position = position
        self.isVirtual = isVirtual
        self.formats = formats
        self.mediaTypes = mediaTypes
        self.source = source
        self.controls = controls
        self.state = Locked(ConfigurationState(activeFormat: formats.first))
    }

    /// True when the device delivers `mediaType` (as AVFoundation's `hasMediaType`).
    public func hasMediaType(_ mediaType: MediaType) -> Bool { mediaTypes.contains(mediaType) }

    /// `localizedName (uniqueID)`, marked `[virtual]` for virtual devices.
    public var description: String { "\(localizedName) (\(uniqueID))\(isVirtual ? " [virtual]" : "")" }

    /// The format the device delivers; the first of ``formats`` until changed with ``setActiveFormat(_:)``, or by a
    /// session preset when the device is added to a session. Nil only for a device without formats.
    public var activeFormat: Format? { state.withLock { $0.activeFormat } }

    /// The shortest time between frames the device is set to (1 / the highest frame rate), from the active format.
    public var activeVideoMinFrameDuration: MediaTime { activeFormat?.frameRateRanges.first?.minFrameDuration ?? .invalid }

    /// The longest time between frames the device is set to (1 / the lowest frame rate), from the active format.
    public var activeVideoMaxFrameDuration: MediaTime { activeFormat?.frameRateRanges.first?.maxFrameDuration ?? .invalid }

    /// True when one of ``formats`` fits `preset` (as AVFoundation's `supportsAVCaptureSessionPreset`).
    public func supportsSessionPreset(_ preset: CaptureSession.Preset) -> Bool { format(for: preset) != nil }

    /// Takes the configuration lock (as AVFoundation's `lockForConfiguration`). Nested calls from the same owner
    /// are counted; each needs its ``unlockForConfiguration()``.
    /// - Throws: ``CaptureDeviceError/disconnected(_:)`` when the device has gone.
    public func lockForConfiguration() throws(CaptureDeviceError) {
        try state.withLock { (state: inout ConfigurationState) throws(CaptureDeviceError) in
            if state.isDisconnected { throw .disconnected(uniqueID) }
            state.lockCount += 1
        }
    }

    /// Releases the configuration lock taken by ``lockForConfiguration()``; extra calls are ignored.
    public func unlockForConfiguration() {
        state.withLock { $0.lockCount = max(0, $0.lockCount - 1) }
    }

    /// True while the configuration lock is held.
    public var isLockedForConfiguration: Bool { state.withLock { $0.lockCount > 0 } }

    /// Sets the format the device delivers (AVFoundation's `activeFormat` setter).
    /// - Throws: ``CaptureDeviceError/notLockedForConfiguration(_:)`` without the lock;
    ///   ``CaptureDeviceError/unsupportedFormat(device:format:)`` for a format not in ``formats``.
    public func setActiveFormat(_ format: Format) throws(CaptureDeviceError) {
        try requireLock()
        guard formats.contains(format) else { throw .unsupportedFormat(device: uniqueID, format: format.description) }
        state.withLock { $0.activeFormat = format }
    }

    /// Throws unless the configuration lock is held.
    func requireLock() throws(CaptureDeviceError) {
        guard isLockedForConfiguration else { throw .notLockedForConfiguration(uniqueID) }
    }

    /// Sets the active format without the lock, for a session applying its preset.
    func applyPresetFormat(_ format: Format) { state.withLock { $0.activeFormat = format } }

    /// The device's mutable state.
    struct ConfigurationState: Sendable {
        var activeFormat: Format?
        var lockCount = 0
        var isDisconnected = false
    }
}
