@testable import Capture
import Composition
import Foundation
import Testing

/// Device listing, format choice per preset and control mapping against recorded UVC replies (RecordedUVCCameras).
@Suite("V4L2 cameras from recorded ioctl replies")
struct V4L2RecordedReplyTests {
    @Test("only VIDEO_CAPTURE nodes are listed, with by-id (else by-path) unique IDs, never /dev/videoN")
    func listing() {
        let devices = RecordedUVCCameras.discovered()
        #expect(devices.map(\.uniqueID) == [
            "v4l2:by-id/\(RecordedUVCCameras.c920ByID)",
            "v4l2:by-path/pci-0000:00:14.0-usb-0:5:1.0-video-index0",
        ])
        #expect(devices.map(\.localizedName) == ["HD Pro Webcam C920", "USB2.0 HD UVC WebCam"])
        #expect(devices.allSatisfy { $0.deviceType == .camera && $0.hasMediaType(.video) && !$0.hasMediaType(.audio) })
        #expect(devices.allSatisfy { $0.position == .unspecified && !$0.isVirtual })
        #expect(devices[0].formats.count == 12)
        #expect(devices[0].formats.first?.description == "640x480 YUYV 30 fps, 24 fps, 20 fps, 15 fps, 10 fps, 7 fps, 5 fps")
    }

    @Test("presets pick size, then the highest rate, then uncompressed pixels", arguments: [
        (CaptureSession.Preset.high, "1920x1080 MJPG", "1280x720 MJPG"),
        (.medium, "640x480 YUYV", "640x480 YUYV"),
        (.low, "160x90 YUYV", "320x240 MJPG"),
        (.photo, "1920x1080 MJPG", "1280x720 MJPG"),
        (.hd1280x720, "1280x720 MJPG", "1280x720 MJPG"),
        (.vga640x480, "640x480 YUYV", "640x480 YUYV"),
    ])
    func presetFormats(preset: CaptureSession.Preset, c920: String, fixedFocus: String) {
        let devices = RecordedUVCCameras.discovered()
        func name(_ format: CaptureDevice.Format?) -> String? { format.map { "\($0.width)x\($0.height) \($0.pixelFormat)" } }
        #expect(name(devices[0].format(for: preset)) == c920)
        #expect(name(devices[1].format(for: preset)) == fixedFocus)
        #expect(devices[1].supportsSessionPreset(.hd1920x1080) == false)
        #expect(devices[0].supportsSessionPreset(.hd1920x1080))
    }

    @Test("is…Supported answers from the controls: the C920 focuses and zooms, the fixed-focus camera does not")
    func supportQueries() {
        let devices = RecordedUVCCameras.discovered()
        let c920 = devices[0], fixed = devices[1]
        #expect(c920.isFocusModeSupported(.continuousAutoFocus) && c920.isFocusModeSupported(.locked))
        #expect(!c920.isFocusModeSupported(.autoFocus))
        #expect(CaptureDevice.FocusMode.allCases.allSatisfy { !fixed.isFocusModeSupported($0) })
        #expect(c920.isExposureModeSupported(.continuousAutoExposure) && c920.isExposureModeSupported(.custom))
        #expect(fixed.isExposureModeSupported(.custom))
        #expect(c920.isWhiteBalanceModeSupported(.locked) && fixed.isWhiteBalanceModeSupported(.continuousAutoWhiteBalance))
        #expect(!c920.hasTorch && !c920.hasFlash && !c920.isTorchModeSupported(.on))
        #expect(c920.maxAvailableVideoZoomFactor == 5 && fixed.maxAvailableVideoZoomFactor == 1)
        #expect(c920.focusMode == .continuousAutoFocus && fixed.focusMode == nil)
        #expect(c920.exposureDurationRange == MediaTime(value: 3, timescale: 10_000)...MediaTime(value: 2047, timescale: 10_000))
        #expect(fixed.whiteBalanceTemperatureRange == 2800...6500)
    }

    @Test("changes need the lock; under it they reach the driver as the mapped control values")
    func configurationUnderLock() throws {
        let c920 = RecordedUVCCameras.c920()
        let device = try #require(try V4L2Discovery.device(io: c920, stableName: nil))
        #expect(throws: CaptureDeviceError.notLockedForConfiguration("v4l2:/dev/video0")) { try device.setFocusMode(.locked) }
        #expect(throws: CaptureDeviceError.notLockedForConfiguration("v4l2:/dev/video0")) {
            try device.setActiveFormat(device.formats[0])
        }
        #expect(c920.setLog.withLock { $0.isEmpty })

        try device.lockForConfiguration()
        try device.setFocusModeLocked(lensPosition: 0.5)
        try device.setExposureModeCustom(duration: MediaTime(value: 1, timescale: 100))
        try device.setWhiteBalanceModeLocked(temperature: 3200)
        try device.setVideoZoomFactor(2.5)
        #expect(throws: CaptureDeviceError.unsupported(device: "v4l2:/dev/video0", feature: "torch")) { try device.setTorchMode(.on) }
        #expect(throws: CaptureDeviceError.outOfRange(device: "v4l2:/dev/video0", feature: "zoom factor", value: 6, range: 1...5)) {
            try device.setVideoZoomFactor(6)
        }
        try device.setActiveFormat(device.formats[5])
        device.unlockForConfiguration()

        let log = c920.setLog.withLock { $0.map { "\(String($0.0, radix: 16))=\($0.1)" } }
        #expect(log == ["9a090c=0", "9a090a=125", "9a0901=1", "9a0902=100", "98090c=0", "98091a=3200", "9a090d=250"])
        #expect(device.lensPosition == 0.5 && device.videoZoomFactor == 2.5 && device.focusMode == .locked)
        #expect(device.activeFormat == device.formats[5])
        #expect(throws: CaptureDeviceError.notLockedForConfiguration("v4l2:/dev/video0")) { try device.setVideoZoomFactor(1) }
    }
}
