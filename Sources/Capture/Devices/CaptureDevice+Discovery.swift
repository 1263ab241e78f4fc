import Composition

extension CaptureDevice {
    /// Finds devices by type, media type and position (AVFoundation's `AVCaptureDevice.DiscoverySession`).
    ///
    /// ``devices`` is read when asked, so a device plugged in (or a server started) since is found. Virtual devices
    /// are always listed, last, marked ``CaptureDevice/isVirtual``.
    public struct DiscoverySession: Sendable {
        /// The kinds asked for.
        public var deviceTypes: [DeviceType]
        /// The media type asked for; nil for any.
        public var mediaType: MediaType?
        /// The position asked for; `.unspecified` for any.
        public var position: Position

        /// A discovery of `deviceTypes` delivering `mediaType` (nil: any) at `position` (`.unspecified`: any).
        public init(deviceTypes: [DeviceType] = DeviceType.allCases, mediaType: MediaType? = nil, position: Position = .unspecified) {
            self.deviceTypes = deviceTypes
            self.mediaType = mediaType
            self.position = position
        }

        /// The matching devices now: V4L2 cameras, audio-server sources, ALSA capture PCMs, X11 screens, then
        /// virtual devices.
        public var devices: [CaptureDevice] {
            var found: [CaptureDevice] = []
            if deviceTypes.contains(.camera) { found += V4L2Discovery.systemDevices() }
            if deviceTypes.contains(.microphone) || deviceTypes.contains(.audioMonitor) {
                found += AudioServerDevices.devices() + AlsaDevices.devices()
            }
            if deviceTypes.contains(.screen) { found += ScreenDevices.devices() }
            found += CaptureDevice.virtualDevices
            return found.filter { device in
                deviceTypes.contains(device.deviceType)
                    && (mediaType.map(device.hasMediaType) ?? true)
                    && (position == .unspecified || device.position == position)
            }
        }
    }

    /// The first device delivering `mediaType` (AVFoundation's `default(for:)`): real devices before virtual ones.
    public static func `default`(for mediaType: MediaType) -> CaptureDevice? {
        DiscoverySession(mediaType: mediaType).devices.first
    }

    /// The device whose ``uniqueID`` is `id`, or failing that whose ``localizedName`` is `id` (as `splice devices`
    /// prints them); nil when none is there now.
    public static func device(withUniqueID id: String) -> CaptureDevice? {
        let devices = DiscoverySession().devices
        return devices.first { $0.uniqueID == id } ?? devices.first { $0.localizedName == id }
    }
}
