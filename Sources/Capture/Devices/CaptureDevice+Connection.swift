extension CaptureDevice {
    /// A device appearing or going away (AVFoundation's `AVCaptureDeviceWasConnected` and
    /// `AVCaptureDeviceWasDisconnected` notifications).
    public enum ConnectionEvent: Sendable, CustomStringConvertible {
        /// A device is there now that was not: a camera plugged in, an audio source added, an X display started.
        case connected(CaptureDevice)
        /// A device has gone; it is the instance found before, now with ``CaptureDevice/isConnected`` false.
        case disconnected(CaptureDevice)

        /// The device concerned.
        public var device: CaptureDevice {
            switch self {
            case .connected(let device), .disconnected(let device): return device
            }
        }

        /// `connected <uniqueID>\t<name>` or `disconnected <uniqueID>\t<name>`, as `splice devices --watch` prints.
        public var description: String {
            switch self {
            case .connected(let device): return "connected \(device.uniqueID)\t\(device.localizedName)"
            case .disconnected(let device): return "disconnected \(device.uniqueID)\t\(device.localizedName)"
            }
        }
    }

    /// False once the device has gone (AVFoundation's `isConnected`): reported by ``connectionEvents(pollInterval:)``,
    /// or found by a session whose device stopped delivering. A ``CaptureDeviceInput`` cannot be made for it then.
    public var isConnected: Bool { !state.withLock { $0.isDisconnected } }

    /// Marks the device as gone.
    func markDisconnected() { state.withLock { $0.isDisconnected = true } }

    /// The devices connected and disconnected from now on (virtual devices never are), until the stream's consumer
    /// stops iterating it. The devices there now are listed before this returns (it blocks for that listing, as
    /// ``DiscoverySession/devices`` does): a device added after it returns is always reported.
    ///
    /// V4L2 cameras are noticed at once: `/dev` is watched with inotify (a node created or removed), then the cameras
    /// are listed again after 0.2 s for udev's `/dev/v4l/by-id` links to settle. Audio-server sources and X11
    /// displays have no such signal here, so they are listed again every `pollInterval` seconds (default 1; at least
    /// 0.1). Each stream runs its own watcher thread; it ends within 0.1 s of the consumer stopping.
    public static func connectionEvents(pollInterval: Double = 1) -> AsyncStream<ConnectionEvent> {
        let (stream, continuation) = AsyncStream<ConnectionEvent>.makeStream(bufferingPolicy: .unbounded)
        let monitor = DeviceConnectionMonitor(pollInterval: max(0.1, pollInterval)) { continuation.yield($0) }
        continuation.onTermination = { _ in monitor.stop() }
        monitor.start()
        return stream
    }
}
