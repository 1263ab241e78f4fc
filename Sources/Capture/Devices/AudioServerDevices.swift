import SpliceFFmpeg

/// The PulseAudio (or PipeWire's pulse server) sources, through libavdevice's `pulse` input
/// (`avdevice_list_input_sources`): microphones and, as `.audioMonitor`, the monitors of outputs.
enum AudioServerDevices {
    /// The sources the server has now; empty when no server answers.
    static func devices() -> [CaptureDevice] { listedDevices() ?? [] }

    /// The sources the server has now, nil when the listing failed (no server, or it did not answer): a watcher
    /// must not take a failed listing for every source gone.
    static func listedDevices() -> [CaptureDevice]? {
        guard let sources = try? MediaLibrary.inputSources(ofDevice: "pulse") else { return nil }
        return sources.map(device(for:))
    }

    /// A device for one `pulse` source: 48 kHz stereo, stamped from the wall clock (the `pulse` input's default).
    static func device(for source: MediaLibrary.DeviceSource) -> CaptureDevice {
        let isMonitor = source.name.hasSuffix(".monitor")
        return CaptureDevice(
            uniqueID: "pulse:\(source.name)", localizedName: source.description.isEmpty ? source.name : source.description,
            modelID: "pulse", deviceType: isMonitor ? .audioMonitor : .microphone,
            formats: [CaptureDevice.Format(sampleRate: 48_000, channelCount: 2)], mediaTypes: [.audio],
            source: CaptureSource(formatName: "pulse", device: source.name,
                                  options: ["sample_rate": "48000", "channels": "2"], clock: .wallClock))
    }
}
