import Composition
import SpliceFFmpeg

/// The link between one input's media and one output (AVFoundation's `AVCaptureConnection`): made by the session
/// when an output is added, one per media type the output takes and an input delivers.
public final class CaptureConnection: Sendable {
    /// The media type carried.
    public let mediaType: MediaType
    /// The device whose media is carried.
    public let inputDevice: CaptureDevice
    private let enabled = Locked(true)

    init(mediaType: MediaType, inputDevice: CaptureDevice) {
        self.mediaType = mediaType
        self.inputDevice = inputDevice
    }

    /// True when media flows through the connection (default true); read when a recording starts.
    public var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }
}
