/// A camera's V4L2 controls as its driver reported them (`VIDIOC_QUERYCTRL`), read and written through its
/// ``V4L2DeviceIO`` (`VIDIOC_G_CTRL`, `VIDIOC_S_CTRL`).
final class V4L2Controls: Sendable {
    let io: any V4L2DeviceIO
    let infos: [UInt32: V4L2ControlInfo]

    init(io: any V4L2DeviceIO, infos: [V4L2ControlInfo]) {
        self.io = io
        self.infos = Dictionary(infos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The control's description, nil when the driver has no such control.
    func info(_ id: UInt32) -> V4L2ControlInfo? { infos[id] }

    /// True when the driver has the control and, for a menu, accepts `menuItem`.
    func has(_ id: UInt32, menuItem: Int32? = nil) -> Bool {
        guard let info = infos[id] else { return false }
        guard let menuItem else { return true }
        return info.menuItems.contains(menuItem)
    }

    /// The control's current value (`VIDIOC_G_CTRL`).
    func value(_ id: UInt32, device: String, feature: String) throws(CaptureDeviceError) -> Int32 {
        do { return try io.value(ofControl: id) } catch { throw .controlFailed(device: device, feature: feature, errno: error.errno) }
    }

    /// Sets the control (`VIDIOC_S_CTRL`), after checking the value against the reported range.
    func set(_ id: UInt32, to value: Int32, device: String, feature: String) throws(CaptureDeviceError) {
        guard let info = infos[id] else { throw .unsupported(device: device, feature: feature) }
        guard value >= info.minimum, value <= info.maximum else {
            throw .outOfRange(device: device, feature: feature, value: Double(value),
                              range: Double(info.minimum)...Double(info.maximum))
        }
        do { try io.setValue(value, ofControl: id) } catch { throw .controlFailed(device: device, feature: feature, errno: error.errno) }
    }
}
