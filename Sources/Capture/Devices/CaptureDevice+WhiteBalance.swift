extension CaptureDevice {
    /// How white balance is set (AVFoundation's `AVCaptureDevice.WhiteBalanceMode`).
    public enum WhiteBalanceMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Fixed (V4L2 `AUTO_WHITE_BALANCE` = 0).
        case locked
        /// Keep adjusting (`AUTO_WHITE_BALANCE` = 1).
        case continuousAutoWhiteBalance
    }

    /// True when the device has `AUTO_WHITE_BALANCE` (both modes are its two values).
    public func isWhiteBalanceModeSupported(_ mode: WhiteBalanceMode) -> Bool {
        controls?.has(V4L2ControlID.autoWhiteBalance) ?? false
    }

    /// Sets the white-balance mode.
    /// - Throws: ``CaptureDeviceError``: not locked, unsupported, or the driver's refusal.
    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(CaptureDeviceError) {
        try requireLock()
        guard let controls, isWhiteBalanceModeSupported(mode) else { throw .unsupported(device: uniqueID, feature: "white balance mode") }
        try controls.set(V4L2ControlID.autoWhiteBalance, to: mode == .locked ? 0 : 1, device: uniqueID, feature: "white balance mode")
    }

    /// The colour temperatures the device accepts, kelvin (`WHITE_BALANCE_TEMPERATURE`'s range), nil without it.
    public var whiteBalanceTemperatureRange: ClosedRange<Int>? {
        guard let info = controls?.info(V4L2ControlID.whiteBalanceTemperature) else { return nil }
        return Int(info.minimum)...Int(info.maximum)
    }

    /// Locks white balance at `kelvin` (AVFoundation's `setWhiteBalanceModeLocked(with:)` with temperature and tint
    /// values; V4L2 has temperature only): auto off, then `WHITE_BALANCE_TEMPERATURE`.
    /// - Throws: ``CaptureDeviceError``: not locked, unsupported, out of range.
    public func setWhiteBalanceModeLocked(temperature kelvin: Int) throws(CaptureDeviceError) {
        try requireLock()
        guard let controls, controls.has(V4L2ControlID.whiteBalanceTemperature) else {
            throw .unsupported(device: uniqueID, feature: "white balance temperature")
        }
        if controls.has(V4L2ControlID.autoWhiteBalance) {
            try controls.set(V4L2ControlID.autoWhiteBalance, to: 0, device: uniqueID, feature: "white balance mode")
        }
        try controls.set(V4L2ControlID.whiteBalanceTemperature, to: Int32(clamping: kelvin), device: uniqueID,
                         feature: "white balance temperature")
    }
}
