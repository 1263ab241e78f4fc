/// How the capture engine opens a device: a libavdevice input format, the name it opens and its options, and the
/// clock its timestamps are on.
struct CaptureSource: Sendable, Hashable {
    /// The clock a device stamps its packets with.
    enum Clock: Sendable, Hashable {
        /// Timestamps start at 0 when the device is opened (lavfi): opened with the session, so 0 is session start.
        case zeroAtOpen
        /// Microseconds of the wall clock (`av_gettime`: pulse with `wallclock=1`, x11grab, v4l2 with
        /// `-ts abs` on most drivers).
        case wallClock
    }

    /// The libavdevice input format (`lavfi`, `pulse`, `x11grab`, `v4l2`).
    var formatName: String
    /// What the format opens (a filter graph, a source name, a display, a node).
    var device: String
    /// Device options (`video_size`, `framerate`, `sample_rate`, `channels`, …).
    var options: [String: String]
    /// The clock of the device's timestamps.
    var clock: Clock
}
