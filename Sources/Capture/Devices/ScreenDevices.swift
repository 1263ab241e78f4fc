import Foundation
import SpliceFFmpeg
internal import CMedia

/// X11 screens as capture devices (libavdevice `x11grab`). libavdevice cannot list them (ENOSYS), so the displays
/// are the X server sockets in `/tmp/.X11-unix` (`X<n>` → display `:n`), and each display's screen 0 is opened once
/// to learn its size.
enum ScreenDevices {
    /// Frames per second a screen is captured at.
    static let frameRate: Int32 = 30

    /// The screens of the displays whose sockets exist now.
    static func devices() -> [CaptureDevice] {
        let sockets = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp/.X11-unix")) ?? []
        return sockets.compactMap { name -> CaptureDevice? in
            guard name.hasPrefix("X"), let number = Int(name.dropFirst()) else { return nil }
            return device(display: ":\(number)")
        }.sorted { $0.uniqueID < $1.uniqueID }
    }

    /// True while the X server socket of `screen`'s display exists (`x11:99.0` → `/tmp/.X11-unix/X99`).
    static func socketExists(for screen: CaptureDevice) -> Bool {
        let display = screen.uniqueID.dropFirst("x11:".count).split(separator: ".").first.map(String.init) ?? ""
        return FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)")
    }

    /// Screen 0 of `display` (`:99`), nil when it cannot be opened.
    static func device(display: String) -> CaptureDevice? {
        let name = "\(display).0"
        guard let input = try? InputFile(device: name, formatName: "x11grab", options: ["draw_mouse": "0"]),
              input.streamCount > 0, let parameters = input.stream(at: 0).pointee.codecpar else { return nil }
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        let format = CaptureDevice.Format(pixelFormat: "bgr0", width: width, height: height,
                                          frameRateRanges: [CaptureDevice.FrameRateRange(framesPerSecond: frameRate)])
        return CaptureDevice(
            uniqueID: "x11:\(name.dropFirst())", localizedName: "Screen \(name)", modelID: "x11grab", deviceType: .screen,
            formats: [format], mediaTypes: [.video],
            source: CaptureSource(formatName: "x11grab", device: "\(name)+0,0",
                                  options: ["draw_mouse": "0", "video_size": "\(width)x\(height)", "framerate": "\(frameRate)"],
                                  clock: .wallClock))
    }
}
