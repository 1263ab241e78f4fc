import Composition

extension CaptureDevice {
    /// How exposure is set (AVFoundation's `AVCaptureDevice.ExposureMode`).
    public enum ExposureMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Fixed at the current duration (V4L2 `EXPOSURE_AUTO` = manual).
        case locked
        /// Keep adjusting (V4L2 `EXPOSURE_AUTO` = auto, or aperture priority — what UVC cameras offer).
        case continuousAutoExposure
        /// A duration the app sets (`EXPOSURE_AUTO` = manual plus `EXPOSURE_ABSOLUTE`).
        case custom
    }

    /// V4L2's `EXPOSURE_AUTO` menu values.
    private enum V4L2Exposure { static let auto: Int32 = 0, manual: Int32 = 1, aperturePriority: Int32 = 3 }

    /// True when the device's `EXPOSURE_AUTO` menu has an item for `mode` (custom also needs `EXPOSURE_ABSOLUTE`).
    public func isExposureModeSupported(_ mode: ExposureMode) -> Bool {
        guard let controls else { return false }
        switch mode {
        case .locked: return controls.has(V4L2ControlID.exposureAuto, menuItem: V4L2Exposure.manual)
        case .custom:
            return controls.has(V4L2ControlID.exposureAuto, menuItem: V4L2Exposure.manual) && controls.has(V4L2ControlID.exposureAbsolute)
        case .continuousAutoExposure:
            return controls.has(V4L2ControlID.exposureAuto, menuItem: V4L2Exposure.auto)
                || controls.has(V4L2ControlID.exposureAuto, menuItem: V4L2Exposure.aperturePriority)
        }
    }

    /// Sets the exposure mode (`.custom` keeps the current duration; use ``setExposureModeCustom(duration:)``).
    /// - Throws: ``CaptureDeviceError``: not locked, unsupported, or the driver's refusal.
    public func setExposureMode(_ mode: ExposureMode) throws(CaptureDeviceError) {
        try requireLock()
        guard let controls, isExposureModeSupported(mode) else { throw .unsupported(device: uniqueID, feature: "exposure mode \(mode)") }
        let value: Int32
        switch mode {
        case .locked, .custom: value = V4L2Exposure.manual
        case .continuousAutoExposure:
            value = controls.has(V4L2ControlID.exposureAuto, menuItem: V4L2Exposure.auto) ? V4L2Exposure.auto : V4L2Exposure.aperturePriority
        }
        try controls.set(V4L2ControlID.exposureAuto, to: value, device: uniqueID, feature: "exposure mode")
    }

    /// The exposure duration range the device accepts (`EXPOSURE_ABSOLUTE`'s range in 100 µs units, as exact
    /// times), nil without that control.
    public var exposureDurationRange: ClosedRange<MediaTime>? {
        guard let info = controls?.info(V4L2ControlID.exposureAbsolute) else { return nil }
        return MediaTime(value: Int64(info.minimum), timescale: 10_000)...MediaTime(value: Int64(info.maximum), timescale: 10_000)
    }

    /// Sets a custom exposure duration (AVFoundation's `setExposureModeCustom(duration:iso:)` without ISO, which
    /// UVC cameras do not expose): manual mode, then `EXPOSURE_ABSOLUTE` = duration in 100 µs units, rounded.
    /// - Throws: ``CaptureDeviceError``: not locked, unsupported, out of ``exposureDurationRange``.
    public func setExposureModeCustom(duration: MediaTime) throws(CaptureDeviceError) {
        try requireLock()
        guard let controls, isExposureModeSupported(.custom), let info = controls.info(V4L2ControlID.exposureAbsolute) else {
            throw .unsupported(device: uniqueID, feature: "custom exposure")
        }
        let units = (duration.seconds * 10_000).rounded()
        guard units >= Double(info.minimum), units <= Double(info.maximum) else {
            throw .outOfRange(device: uniqueID, feature: "exposure duration (100 µs units)", value: units,
                              range: Double(info.minimum)...Double(info.maximum))
        }
        try controls.set(V4L2ControlID.exposureAuto, to: V4L2Exposure.manual, device: uniqueID, feature: "exposure mode")
        try controls.set(V4L2ControlID.exposureAbsolute, to: Int32(units), device: uniqueID, feature: "exposure duration")
    }
}
