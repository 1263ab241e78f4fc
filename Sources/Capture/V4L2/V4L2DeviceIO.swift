/// The V4L2 ioctls the capture module asks of a camera node, behind a protocol so that the mapping from replies to
/// devices, formats and controls can be tested against recorded replies (no camera, no kernel module here).
///
/// Each requirement stands for one ioctl (or its enumeration loop): `VIDIOC_QUERYCAP`, `VIDIOC_ENUM_FMT`,
/// `VIDIOC_ENUM_FRAMESIZES`, `VIDIOC_ENUM_FRAMEINTERVALS`, `VIDIOC_QUERYCTRL` (+ `VIDIOC_QUERYMENU`),
/// `VIDIOC_G_CTRL`, `VIDIOC_S_CTRL`. Failures are `V4L2IOError` with the errno.
package protocol V4L2DeviceIO: Sendable {
    /// The node (`/dev/video0`).
    var path: String { get }
    /// `VIDIOC_QUERYCAP`.
    func capability() throws(V4L2IOError) -> V4L2Capability
    /// `VIDIOC_ENUM_FMT` for `V4L2_BUF_TYPE_VIDEO_CAPTURE`, every index until `EINVAL`.
    func pixelFormats() throws(V4L2IOError) -> [V4L2PixelFormat]
    /// `VIDIOC_ENUM_FRAMESIZES` for one pixel format (discrete sizes; a stepwise reply as its two ends).
    func frameSizes(pixelFormat: String) throws(V4L2IOError) -> [V4L2FrameSize]
    /// `VIDIOC_ENUM_FRAMEINTERVALS` for one pixel format and size: frame durations as `numerator/denominator` s.
    func frameIntervals(pixelFormat: String, width: Int, height: Int) throws(V4L2IOError) -> [V4L2FrameInterval]
    /// `VIDIOC_QUERYCTRL` with `V4L2_CTRL_FLAG_NEXT_CTRL` until `EINVAL`, menus through `VIDIOC_QUERYMENU`.
    func controls() throws(V4L2IOError) -> [V4L2ControlInfo]
    /// `VIDIOC_G_CTRL`.
    func value(ofControl id: UInt32) throws(V4L2IOError) -> Int32
    /// `VIDIOC_S_CTRL`.
    func setValue(_ value: Int32, ofControl id: UInt32) throws(V4L2IOError)
}

/// A failed ioctl: its name and the errno it set.
package struct V4L2IOError: Error, Sendable, Hashable {
    /// The ioctl's name (`VIDIOC_S_CTRL`).
    package var ioctl: String
    /// The errno it set.
    package var errno: Int32
    /// A failure of `ioctl` with `errno`.
    package init(ioctl: String, errno: Int32) {
        self.ioctl = ioctl
        self.errno = errno
    }
}

/// The reply to `VIDIOC_QUERYCAP` (`struct v4l2_capability`).
package struct V4L2Capability: Sendable, Hashable {
    /// The driver's name (`uvcvideo`).
    package var driver: String
    /// The device's name (`HD Pro Webcam C920`).
    package var card: String
    /// Where it is attached (`usb-0000:00:14.0-2`).
    package var busInfo: String
    /// `device_caps` (the node's own capabilities; `capabilities` covers the whole device).
    package var deviceCapabilities: UInt32

    /// `V4L2_CAP_VIDEO_CAPTURE`.
    package static let videoCapture: UInt32 = 0x0000_0001
    /// `V4L2_CAP_META_CAPTURE` (the UVC metadata node every UVC camera also exposes).
    package static let metaCapture: UInt32 = 0x0080_0000

    /// A reply with these fields.
    package init(driver: String, card: String, busInfo: String, deviceCapabilities: UInt32) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.deviceCapabilities = deviceCapabilities
    }

    /// True for a node that delivers pictures (`V4L2_CAP_VIDEO_CAPTURE` in `device_caps`).
    package var isVideoCapture: Bool { deviceCapabilities & Self.videoCapture != 0 }
}

/// One `VIDIOC_ENUM_FMT` reply: the FourCC and the driver's description.
package struct V4L2PixelFormat: Sendable, Hashable {
    /// The pixel format's FourCC (`YUYV`, `MJPG`).
    package var fourCC: String
    /// The driver's description of it.
    package var description: String
    /// A reply with these fields.
    package init(fourCC: String, description: String) {
        self.fourCC = fourCC
        self.description = description
    }
}

/// One `VIDIOC_ENUM_FRAMESIZES` reply (discrete), pixels.
package struct V4L2FrameSize: Sendable, Hashable {
    /// Pixels.
    package var width: Int
    /// Pixels.
    package var height: Int
    /// A size in pixels.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// One `VIDIOC_ENUM_FRAMEINTERVALS` reply (discrete): the frame duration `numerator/denominator` seconds.
package struct V4L2FrameInterval: Sendable, Hashable {
    /// Seconds per frame: numerator.
    package var numerator: Int32
    /// Seconds per frame: denominator.
    package var denominator: Int32
    /// A frame duration of `numerator/denominator` seconds.
    package init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }
}

/// One `VIDIOC_QUERYCTRL` reply (`struct v4l2_queryctrl`), with its menu items (`VIDIOC_QUERYMENU`).
package struct V4L2ControlInfo: Sendable, Hashable {
    /// `V4L2_CTRL_TYPE_*`.
    package enum Kind: Sendable, Hashable { case integer, boolean, menu, button }
    /// The control ID (`V4L2_CID_*`).
    package var id: UInt32
    /// The driver's name for it.
    package var name: String
    /// Its type.
    package var kind: Kind
    /// The smallest value, in the control's unit.
    package var minimum: Int32
    /// The largest value.
    package var maximum: Int32
    /// The step between values.
    package var step: Int32
    /// The driver's default.
    package var defaultValue: Int32
    /// The menu indices the driver accepts (`VIDIOC_QUERYMENU` succeeded for them); empty for other kinds.
    package var menuItems: [Int32]

    /// A reply with these fields.
    package init(id: UInt32, name: String, kind: Kind, minimum: Int32, maximum: Int32, step: Int32 = 1,
                 defaultValue: Int32, menuItems: [Int32] = []) {
        self.id = id
        self.name = name
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.menuItems = menuItems
    }
}
