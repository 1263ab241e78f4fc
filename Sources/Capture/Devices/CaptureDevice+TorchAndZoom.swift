extension CaptureDevice {
    /// The torch (a continuous light; AVFoundation's `AVCaptureDevice.TorchMode`).
    public enum TorchMode: String, Sendable, Hashable, Codable { case off, on }

    /// True when the device has a light it can keep on (V4L2 `FLASH_LED_MODE` with its torch item).
    public var hasTorch: Bool { controls?.has(V4L2ControlID.flashLEDMode, menuItem: 2) ?? false }

    /// True when the device has a flash (V4L2 `FLASH_LED_MODE` with its flash item).
    public var hasFlash: Bool { controls?.has(V4L2ControlID.flashLEDMode, menuItem: 1) ?? false }

    /// True when `mode` can be set: `.off` and `.on` both need a torch.
    public func isTorchModeSupported(_ mode: TorchMode) -> Bool { hasTorch }

    /// Turns the torch on or off (`FLASH_LED_MODE` = torch / none).
    /// - Throws: ``CaptureDeviceError``: not locked, no torch, or the driver's refusal.
    public func setTorchMode(_ mode: TorchMode) throws(CaptureDeviceError) {
        try requireLock()
        guard let controls, hasTorch else { throw .unsupported(device: uniqueID, feature: "torch") }
        try controls.set(V4L2ControlID.flashLEDMode, to: mode == .on ? 2 : 0, device: uniqueID, feature: "torch")
    }

    /// The largest zoom factor (`ZOOM_ABSOLUTE` maximum / minimum; 1 without zoom).
    public var maxAvailableVideoZoomFactor: Double {
        guard let info = controls?.info(V4L2ControlID.zoomAbsolute), info.minimum > 0 else { return 1 }
        return Double(info.maximum) / Double(info.minimum)
    }

    /// The zoom factor now (≥ 1; `ZOOM_ABSOLUTE` / its minimum), 1 without zoom.
    public var videoZoomFactor: Double {
        guard let controls, let info = controls.info(V4L2ControlID.zoomAbsolute), info.minimum > 0,
              let value = try? controls.value(V4L2ControlID.zoomAbsolute, device: uniqueID, feature: "zoom") else { return 1 }
        return Double(value) / Double(info.minimum)
    }

    /// Sets the zoom factor (AVFoundation's `videoZoomFactor` setter): `ZOOM_ABSOLUTE` = factor × minimum.
    /// - Throws: ``CaptureDeviceError``: not locked, no zoom, outside 1…``maxAvailableVideoZoomFactor``.
    public func setVideoZoomFactor(_ factor: Double) throws(CaptureDeviceError) {
        try requireLock()
        guard let controls, let info = controls.info(V4L2ControlID.zoomAbsolute), info.minimum > 0 else {
            throw .unsupported(device: uniqueID, feature: "zoom")
        }
        guard factor >= 1, factor <= maxAvailableVideoZoomFactor else {
            throw .outOfRange(device: uniqueID, feature: "zoom factor", value: factor, range: 1...maxAvailableVideoZoomFactor)
        }
        try controls.set(V4L2ControlID.zoomAbsolute, to: info.snapped(factor * Double(info.minimum)), device: uniqueID, feature: "zoom")
    }
}
