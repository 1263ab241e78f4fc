import SpliceFFmpeg

/// ALSA capture PCMs (libavdevice's `alsa` input, `avdevice_list_input_sources`, which reads ALSA's name hints for
/// PCMs that can capture). The hints also name every software plugin (`null`, `pulse`, `speex`, `upmix`, …);
/// only the sound cards' own devices are kept, one per card and device, opened as `plughw:CARD=…,DEV=…` (ALSA
/// converts the rate and format the card offers to 48 kHz stereo).
///
/// Tried here only against the listing of a machine without a sound card (plugins only: no device) and against
/// a hint list of the kind a laptop with a USB webcam gives (`Tests/CaptureTests/AlsaHintTests.swift`). Under
/// PulseAudio or PipeWire the card is usually held by the server: use its `pulse:` source instead.
package enum AlsaDevices {
    /// The capture PCMs of the sound cards present now; empty without a card.
    static func devices() -> [CaptureDevice] { listedDevices() ?? [] }

    /// The capture PCMs of the sound cards present now, nil when the listing failed.
    static func listedDevices() -> [CaptureDevice]? {
        guard let sources = try? MediaLibrary.inputSources(ofDevice: "alsa") else { return nil }
        return devices(fromHints: sources.map { ($0.name, $0.description) })
    }

    /// The devices among ALSA name hints (`name`, `description` as `arecord -L` prints them): those naming a card
    /// (`hw:CARD=PCH,DEV=0`, `plughw:…`, `sysdefault:CARD=PCH`, `front:…`, `dsnoop:…`), one per card and device
    /// number, with the description's first line as the name (`HDA Intel PCH, ALC3246 Analog`).
    package static func devices(fromHints hints: [(name: String, description: String)]) -> [CaptureDevice] {
        var seen: Set<String> = []
        var devices: [CaptureDevice] = []
        for hint in hints {
            guard let colon = hint.name.firstIndex(of: ":") else { continue }
            var card: String?
            var number = "0"
            for parameter in hint.name[hint.name.index(after: colon)...].split(separator: ",") {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                if pair[0] == "CARD" { card = pair[1] }
                if pair[0] == "DEV" { number = pair[1] }
            }
            guard let card, seen.insert("\(card),\(number)").inserted else { continue }
            let pcm = "plughw:CARD=\(card),DEV=\(number)"
            let name = hint.description.split(separator: "\n").first.map(String.init) ?? card
            devices.append(CaptureDevice(
                uniqueID: "alsa:\(pcm)", localizedName: name, modelID: "alsa", deviceType: .microphone,
                formats: [CaptureDevice.Format(sampleRate: 48_000, channelCount: 2)], mediaTypes: [.audio],
                source: CaptureSource(formatName: "alsa", device: pcm, options: ["sample_rate": "48000", "channels": "2"],
                                      clock: .wallClock)))
        }
        return devices
    }
}
