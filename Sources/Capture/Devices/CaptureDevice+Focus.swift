extension CaptureDevice {
    /// How the lens focuses (AVFoundation's `AVCaptureDevice.FocusMode`).
    public enum FocusMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Fixed at the lens position (V4L2 `FOCUS_AUTO` = 0; needs `FOCUS_ABSOLUTE` to be meaningful).
        case locked
        /// Focus once, then lock (V4L2 `AUTO_FOCUS_START`).
        case autoFocus
        /// Keep focusing (V4L2 `FOCUS_AUTO` = 1).
        case continuousAutoFocus
    }

    /// True when the device's controls can do `mode` (never a guess: a camera without `FOCUS_AUTO` answers false for
    /// every mode but `.locked`, and `.locked` only where the focus is fixed or settable).
    public func isFocusModeSupported(_ mode: FocusMode) -> Bool {
        guard let controls else { return false }
        switch mode {
        case .locked: return controls.has(V4L2ControlID.focusAbsolute) || controls.has(V4L2ControlID.focusAuto)
        case .autoFocus: return controls.has(V4L2ControlID.autoFocusStart)
        case .continuousAutoFocus: return controls.has(V4L2ControlID.focusAuto)
        }
    }

    /// The focus mode now (read from the device), nil for a device without focus controls.
    public var focusMode: FocusMode? {
        guard let controls, controls.has(V4L2ControlID.focusAuto) else {
            return isFocusModeSupported(.locked) ? .locked : nil
        }
        guard let value = try? controls.value(V4L2ControlID.focusAuto, device: uniqueID, feature: "focus mode") else { return nil }
        return value != 0 ? .continuousAutoFocus : .locked
    }

    /// Sets the focus mode.
    /// - Throws: ``CaptureDeviceError/notLockedForConfiguration(_:)``, ``CaptureDeviceError/unsupported(device:feature:)``,
    ///   ``CaptureDeviceError/controlFailed(device:feature:errno:)``.
    public func setFocusMode(_ mode: FocusMode) throws(CaptureDeviceError) {
        try requireLock()
        guard let controls, isFocusModeSupported(mode) else { throw .unsupported(device: uniqueID, feature: "focus mode \(mode)") }
        switch mode {
        case .locked: try controls.set(V4L2ControlID.focusAuto, to: 0, device: uniqueID, feature: "focus mode")
        case .continuousAutoFocus: try controls.set(V4L2ControlID.focusAuto, to: 1, device: uniqueID, feature: "focus mode")
        case .autoFocus:
            if controls.has(V4L2ControlID.focusAuto) {
                try controls.set(V4L2ControlID.focusAuto, to: 0, device: uniqueID, feature: "focus mode")
            }
            try controls.set(V4L2ControlID.autoFocusStart, to: 1, device: uniqueID, feature: "focus mode")
        }
    }

    /// The lens position, 0 (nearest) … 1 (farthest), mapped linearly onto `FOCUS_ABSOLUTE`'s range; nil when the
    /// lens cannot be positioned.
    public var lensPosition: Double? {
        guard let controls, let info = controls.info(V4L2ControlID.focusAbsolute), info.maximum > info.minimum,
              let value = try? controls.value(V4L2ControlID.focusAbsolute, device: uniqueID, feature: "lens position")
        else { return nil }
        return Double(value - info.minimum) / Double(info.maximum - info.minimum)
    }

    /// Locks focus at `lensPosition` (0…1; AVFoundation's `setFocusModeLocked(lensPosition:)`): autofocus off, then
    /// `FOCUS_ABSOLUTE` = minimum + position × (maximum − minimum), rounded to the control's step.
    /// - Throws: as ``setFocusMode(_:)``; ``CaptureDeviceError/outOfRange(device:feature:value:range:)`` outside 0…1.
    public func setFocusModeLocked(lensPosition: Double) throws(CaptureDeviceError) {
        try requireLock()
        guard let controls, let info = controls.info(V4L2ControlID.focusAbsolute) else {
            throw .unsupported(device: uniqueID, feature: "lens position")
        }
        guard (0...1).contains(lensPosition) else {
            throw .outOfRange(device: uniqueID, feature: "lens position", value: lensPosition, range: 0...1)
        }
        if controls.has(V4L2ControlID.focusAuto) {
            try controls.set(V4L2ControlID.focusAuto, to: 0, device: uniqueID, feature: "focus mode")
        }
        let value = info.snapped(Double(info.minimum) + lensPosition * Double(info.maximum - info.minimum))
        try controls.set(V4L2ControlID.focusAbsolute, to: value, device: uniqueID, feature: "lens position")
    }
}

extension V4L2ControlInfo {
    /// `value` rounded to the nearest multiple of `step` from `minimum`, clamped to the range.
    func snapped(_ value: Double) -> Int32 {
        let step = Double(max(step, 1))
        let steps = ((value - Double(minimum)) / step).rounded()
        return Int32(min(Double(maximum), max(Double(minimum), Double(minimum) + steps * step)))
    }
}
