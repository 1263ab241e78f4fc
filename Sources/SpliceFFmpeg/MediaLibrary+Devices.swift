internal import CMedia

extension MediaLibrary {
    private static let deviceRegistration: Void = { avdevice_register_all() }()

    /// Registers libavdevice's input and output devices once (`avdevice_register_all`); called before any device is
    /// opened or listed.
    package static func registerDevices() { _ = deviceRegistration }

    /// One source a libavdevice input device reports (`AVDeviceInfo`).
    package struct DeviceSource: Sendable, Hashable {
        /// The name the device is opened with (`device_name`, e.g. `vsink.monitor`).
        package var name: String
        /// A human-readable description (`device_description`).
        package var description: String
        /// True for the device's default source (`default_device`).
        package var isDefault: Bool
    }

    /// The sources input device `formatName` can open now (wraps `avdevice_list_input_sources`).
    ///
    /// In FFmpeg 5.1 this works for `pulse`, `alsa` and `v4l2`; `x11grab` and `lavfi` answer ENOSYS (list those by
    /// other means). Media types are not filled in by 5.1.
    /// - Throws: ``FFmpegError`` (ENOSYS when the device cannot list; EIO or ECONNREFUSED when its server is absent).
    package static func inputSources(ofDevice formatName: String) throws -> [DeviceSource] {
        installLogRouting()
        registerDevices()
        guard let format = av_find_input_format(formatName) else { throw FFmpegError.posix(ENOSYS) }
        var list: UnsafeMutablePointer<AVDeviceInfoList>?
        let code = avdevice_list_input_sources(format, nil, nil, &list)
        defer { avdevice_free_list_devices(&list) }
        try FFmpegError.check(code, in: "avdevice_list_input_sources")
        guard let list else { return [] }
        var sources: [DeviceSource] = []
        let count = Int(list.pointee.nb_devices)
        for index in 0..<count {
            guard let info = list.pointee.devices[index] else { continue }
            sources.append(DeviceSource(
                name: info.pointee.device_name.map { String(cString: $0) } ?? "",
                description: info.pointee.device_description.map { String(cString: $0) } ?? "",
                isDefault: Int32(index) == list.pointee.default_device))
        }
        return sources
    }
}
