@testable import Capture
import Testing

/// ALSA capture PCMs from name hints (no sound card here: the hints are those `arecord -L` prints on a laptop with
/// an Intel HDA codec and a USB webcam microphone, written out by hand from such a listing).
@Suite("ALSA capture devices from name hints")
struct AlsaHintTests {
    static let laptop: [(name: String, description: String)] = [
        ("null", "Discard all samples (playback) or generate zero samples (capture)"),
        ("pulse", "PulseAudio Sound Server"),
        ("default", "Default ALSA Output (currently PulseAudio Sound Server)"),
        ("sysdefault:CARD=PCH", "HDA Intel PCH, ALC3246 Analog\nDefault Audio Device"),
        ("front:CARD=PCH,DEV=0", "HDA Intel PCH, ALC3246 Analog\nFront output / input"),
        ("dsnoop:CARD=PCH,DEV=0", "HDA Intel PCH, ALC3246 Analog\nDirect sample snooping device"),
        ("hw:CARD=PCH,DEV=0", "HDA Intel PCH, ALC3246 Analog\nDirect hardware device without any conversions"),
        ("plughw:CARD=PCH,DEV=0", "HDA Intel PCH, ALC3246 Analog\nHardware device with all software conversions"),
        ("usbstream:CARD=PCH", "HDA Intel PCH\nUSB Stream Output"),
        ("hw:CARD=C920,DEV=0", "HD Pro Webcam C920, USB Audio\nDirect hardware device without any conversions"),
        ("plughw:CARD=C920,DEV=0", "HD Pro Webcam C920, USB Audio\nHardware device with all software conversions"),
    ]

    @Test("one device per card and device number, opened as plughw, named by the description's first line; plugins left out")
    func cardsOnly() {
        let devices = AlsaDevices.devices(fromHints: Self.laptop)
        #expect(devices.map(\.uniqueID) == ["alsa:plughw:CARD=PCH,DEV=0", "alsa:plughw:CARD=C920,DEV=0"])
        #expect(devices.map(\.localizedName) == ["HDA Intel PCH, ALC3246 Analog", "HD Pro Webcam C920, USB Audio"])
        #expect(devices.allSatisfy { $0.deviceType == .microphone && $0.hasMediaType(.audio) && !$0.isVirtual })
        #expect(devices.map(\.source.device) == ["plughw:CARD=PCH,DEV=0", "plughw:CARD=C920,DEV=0"])
        #expect(devices.first?.activeFormat?.sampleRate == 48_000 && devices.first?.activeFormat?.channelCount == 2)
    }

    @Test("plugins only (this machine: no sound card) give no device")
    func pluginsOnly() {
        #expect(AlsaDevices.devices(fromHints: Array(Self.laptop.prefix(3))).isEmpty)
    }
}
