@testable import Capture
import Foundation
import SpliceFFmpeg

/// V4L2 replies of two UVC webcams, replayed through ``V4L2DeviceIO``.
///
/// Where the data comes from: no camera was ever attached to the machines this project runs on, so these replies
/// were not captured by us. They are transcribed from the output of `v4l2-ctl --all`, `--list-formats-ext` and
/// `--list-ctrls` as published for the two most common kinds of UVC camera on Linux, with the control IDs, types,
/// ranges and menu items the uvcvideo driver reports for them:
/// - a Logitech HD Pro Webcam C920 (046d:082d; autofocus, zoom, manual exposure; YUYV/MJPG/H264), whose listings
///   are reproduced in many public bug reports and forum threads;
/// - a fixed-focus UVC webcam (controls of a camera without a focus unit: no `focus_*`, no zoom; YUYV/MJPG).
/// Both expose a second node with only `V4L2_CAP_META_CAPTURE` (the UVC metadata node, kernel ≥ 4.16).
/// See docs/capture.md for what was and was not tried on hardware.
final class RecordedV4L2Device: V4L2DeviceIO, Sendable {
    let path: String
    let replyCapability: V4L2Capability
    let formatReplies: [(V4L2PixelFormat, [(V4L2FrameSize, [V4L2FrameInterval])])]
    let controlReplies: [V4L2ControlInfo]
    /// The control values now, changed by `VIDIOC_S_CTRL`; every set is logged.
    let values: Locked<[UInt32: Int32]>
    let setLog = Locked<[(UInt32, Int32)]>([])

    init(path: String, capability: V4L2Capability, formats: [(V4L2PixelFormat, [(V4L2FrameSize, [V4L2FrameInterval])])],
         controls: [V4L2ControlInfo]) {
        self.path = path
        replyCapability = capability
        formatReplies = formats
        controlReplies = controls
        values = Locked(Dictionary(uniqueKeysWithValues: controls.map { ($0.id, $0.defaultValue) }))
    }

    func capability() throws(V4L2IOError) -> V4L2Capability { replyCapability }
    func pixelFormats() throws(V4L2IOError) -> [V4L2PixelFormat] { formatReplies.map(\.0) }
    func frameSizes(pixelFormat: String) throws(V4L2IOError) -> [V4L2FrameSize] {
        formatReplies.first { $0.0.fourCC == pixelFormat }?.1.map(\.0) ?? []
    }
    func frameIntervals(pixelFormat: String, width: Int, height: Int) throws(V4L2IOError) -> [V4L2FrameInterval] {
        formatReplies.first { $0.0.fourCC == pixelFormat }?.1.first { $0.0.width == width && $0.0.height == height }?.1 ?? []
    }
    func controls() throws(V4L2IOError) -> [V4L2ControlInfo] { controlReplies }
    func value(ofControl id: UInt32) throws(V4L2IOError) -> Int32 {
        guard let value = values.withLock({ $0[id] }) else { throw V4L2IOError(ioctl: "VIDIOC_G_CTRL", errno: EINVAL) }
        return value
    }
    func setValue(_ value: Int32, ofControl id: UInt32) throws(V4L2IOError) {
        guard values.withLock({ $0[id] }) != nil else { throw V4L2IOError(ioctl: "VIDIOC_S_CTRL", errno: EINVAL) }
        // uvcvideo refuses FOCUS_ABSOLUTE while FOCUS_AUTO is on (EACCES: the control is inactive then).
        if id == V4L2ControlID.focusAbsolute, values.withLock({ $0[V4L2ControlID.focusAuto] }) == 1 {
            throw V4L2IOError(ioctl: "VIDIOC_S_CTRL", errno: EACCES)
        }
        values.withLock { $0[id] = value }
        setLog.withLock { $0.append((id, value)) }
    }
}

enum RecordedUVCCameras {
    static let c920ByID = "usb-046d_HD_Pro_Webcam_C920_8A3D5B1F-video-index0"

    /// /dev/video0: the C920's capture node.
    static func c920() -> RecordedV4L2Device {
        let yuyvRates: [(Int, Int, [Int32])] = [
            (640, 480, [30, 24, 20, 15, 10, 7, 5]), (160, 90, [30, 24, 20, 15, 10, 7, 5]), (320, 240, [30, 24, 20, 15, 10, 7, 5]),
            (800, 600, [24, 20, 15, 10, 7, 5]), (1280, 720, [10, 7, 5]), (1920, 1080, [5]),
        ]
        let mjpgRates: [(Int, Int, [Int32])] = [
            (640, 480, [30, 24, 20, 15, 10, 7, 5]), (160, 90, [30, 24, 20, 15, 10, 7, 5]), (320, 240, [30, 24, 20, 15, 10, 7, 5]),
            (800, 600, [30, 24, 20, 15, 10, 7, 5]), (1280, 720, [30, 24, 20, 15, 10, 7, 5]), (1920, 1080, [30, 24, 20, 15, 10, 7, 5]),
        ]
        func sizes(_ table: [(Int, Int, [Int32])]) -> [(V4L2FrameSize, [V4L2FrameInterval])] {
            table.map { (V4L2FrameSize(width: $0.0, height: $0.1), $0.2.map { V4L2FrameInterval(1, $0) }) }
        }
        return RecordedV4L2Device(
            path: "/dev/video0",
            capability: V4L2Capability(driver: "uvcvideo", card: "HD Pro Webcam C920", busInfo: "usb-0000:00:14.0-2",
                                       deviceCapabilities: 0x0420_0001),
            formats: [(V4L2PixelFormat(fourCC: "YUYV", description: "YUYV 4:2:2"), sizes(yuyvRates)),
                      (V4L2PixelFormat(fourCC: "MJPG", description: "Motion-JPEG"), sizes(mjpgRates))],
            controls: [
                .init(id: 0x0098_0900, name: "Brightness", kind: .integer, minimum: 0, maximum: 255, defaultValue: 128),
                .init(id: 0x0098_0901, name: "Contrast", kind: .integer, minimum: 0, maximum: 255, defaultValue: 128),
                .init(id: V4L2ControlID.autoWhiteBalance, name: "White Balance Temperature, Auto", kind: .boolean,
                      minimum: 0, maximum: 1, defaultValue: 1),
                .init(id: V4L2ControlID.whiteBalanceTemperature, name: "White Balance Temperature", kind: .integer,
                      minimum: 2000, maximum: 6500, defaultValue: 4000),
                .init(id: V4L2ControlID.exposureAuto, name: "Exposure, Auto", kind: .menu, minimum: 0, maximum: 3,
                      defaultValue: 3, menuItems: [1, 3]),
                .init(id: V4L2ControlID.exposureAbsolute, name: "Exposure (Absolute)", kind: .integer, minimum: 3,
                      maximum: 2047, defaultValue: 250),
                .init(id: V4L2ControlID.focusAbsolute, name: "Focus (absolute)", kind: .integer, minimum: 0, maximum: 250,
                      step: 5, defaultValue: 0),
                .init(id: V4L2ControlID.focusAuto, name: "Focus, Auto", kind: .boolean, minimum: 0, maximum: 1, defaultValue: 1),
                .init(id: V4L2ControlID.zoomAbsolute, name: "Zoom, Absolute", kind: .integer, minimum: 100, maximum: 500,
                      defaultValue: 100),
            ])
    }

    /// /dev/video1: the C920's metadata node (`V4L2_CAP_META_CAPTURE` only).
    static func c920Metadata() -> RecordedV4L2Device {
        RecordedV4L2Device(
            path: "/dev/video1",
            capability: V4L2Capability(driver: "uvcvideo", card: "HD Pro Webcam C920", busInfo: "usb-0000:00:14.0-2",
                                       deviceCapabilities: 0x0480_0000),
            formats: [], controls: [])
    }

    /// /dev/video2: a fixed-focus UVC webcam (no focus or zoom controls), reached only through by-path.
    static func fixedFocus() -> RecordedV4L2Device {
        RecordedV4L2Device(
            path: "/dev/video2",
            capability: V4L2Capability(driver: "uvcvideo", card: "USB2.0 HD UVC WebCam", busInfo: "usb-0000:00:14.0-5",
                                       deviceCapabilities: 0x0420_0001),
            formats: [(V4L2PixelFormat(fourCC: "MJPG", description: "Motion-JPEG"), [
                          (V4L2FrameSize(width: 1280, height: 720), [V4L2FrameInterval(1, 30)]),
                          (V4L2FrameSize(width: 640, height: 480), [V4L2FrameInterval(1, 30)]),
                          (V4L2FrameSize(width: 320, height: 240), [V4L2FrameInterval(1, 30)]),
                      ]),
                      (V4L2PixelFormat(fourCC: "YUYV", description: "YUYV 4:2:2"), [
                          (V4L2FrameSize(width: 640, height: 480), [V4L2FrameInterval(1, 30)]),
                          (V4L2FrameSize(width: 1280, height: 720), [V4L2FrameInterval(1, 10)]),
                      ])],
            controls: [
                .init(id: 0x0098_0900, name: "Brightness", kind: .integer, minimum: -64, maximum: 64, defaultValue: 0),
                .init(id: V4L2ControlID.autoWhiteBalance, name: "White Balance Temperature, Auto", kind: .boolean,
                      minimum: 0, maximum: 1, defaultValue: 1),
                .init(id: V4L2ControlID.whiteBalanceTemperature, name: "White Balance Temperature", kind: .integer,
                      minimum: 2800, maximum: 6500, step: 10, defaultValue: 4600),
                .init(id: V4L2ControlID.exposureAuto, name: "Exposure, Auto", kind: .menu, minimum: 0, maximum: 3,
                      defaultValue: 3, menuItems: [1, 3]),
                .init(id: V4L2ControlID.exposureAbsolute, name: "Exposure (Absolute)", kind: .integer, minimum: 1,
                      maximum: 5000, defaultValue: 157),
            ])
    }

    /// The three nodes and the by-id / by-path links udev makes for them.
    static func discovered() -> [CaptureDevice] {
        let nodes: [String: RecordedV4L2Device] = ["/dev/video0": c920(), "/dev/video1": c920Metadata(), "/dev/video2": fixedFocus()]
        let names = V4L2Discovery.stableNames(
            byID: [c920ByID: "../../video0", "usb-046d_HD_Pro_Webcam_C920_8A3D5B1F-video-index1": "../../video1"],
            byPath: ["pci-0000:00:14.0-usb-0:2:1.0-video-index0": "../../video0",
                     "pci-0000:00:14.0-usb-0:2:1.0-video-index1": "../../video1",
                     "pci-0000:00:14.0-usb-0:5:1.0-video-index0": "../../video2"])
        return V4L2Discovery.devices(nodes: Array(nodes.keys), stableNames: names) { nodes[$0] }
    }
}
