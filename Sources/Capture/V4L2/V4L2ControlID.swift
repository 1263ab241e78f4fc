/// The V4L2 control IDs the device configuration maps to (linux/v4l2-controls.h).
package enum V4L2ControlID {
    /// `V4L2_CID_AUTO_WHITE_BALANCE` (boolean).
    package static let autoWhiteBalance: UInt32 = 0x0098_090c
    /// `V4L2_CID_WHITE_BALANCE_TEMPERATURE` (kelvin).
    package static let whiteBalanceTemperature: UInt32 = 0x0098_091a
    /// `V4L2_CID_EXPOSURE_AUTO` (menu: 0 auto, 1 manual, 2 shutter priority, 3 aperture priority).
    package static let exposureAuto: UInt32 = 0x009a_0901
    /// `V4L2_CID_EXPOSURE_ABSOLUTE` (100 µs units).
    package static let exposureAbsolute: UInt32 = 0x009a_0902
    /// `V4L2_CID_FOCUS_ABSOLUTE` (driver units).
    package static let focusAbsolute: UInt32 = 0x009a_090a
    /// `V4L2_CID_FOCUS_AUTO` (boolean: continuous autofocus).
    package static let focusAuto: UInt32 = 0x009a_090c
    /// `V4L2_CID_ZOOM_ABSOLUTE` (driver units).
    package static let zoomAbsolute: UInt32 = 0x009a_090d
    /// `V4L2_CID_AUTO_FOCUS_START` (button: one autofocus run).
    package static let autoFocusStart: UInt32 = 0x009a_091c
    /// `V4L2_CID_CAMERA_ORIENTATION` (menu: 0 front, 1 back, 2 external).
    package static let cameraOrientation: UInt32 = 0x009a_0922
    /// `V4L2_CID_FLASH_LED_MODE` (menu: 0 none, 1 flash, 2 torch).
    package static let flashLEDMode: UInt32 = 0x009c_0901
}
