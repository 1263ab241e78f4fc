import Foundation
import SpliceFFmpeg
internal import CMedia

/// One opened device on the engine thread: its libavdevice input, the decoder of its one stream and a reusable
/// frame. Every decoded frame is handed on with its time on the session clock, in microseconds, computed from the
/// device's own timestamp (never the arrival time).
final class DeviceReader {
    let device: CaptureDevice
    let mediaType: CaptureDevice.Format
    private let input: InputFile
    private let decoder: Decoder
    private let packet: Packet
    private let frame: Frame
    private let timeBase: AVRational
    private let sessionStartWallClock: Int64
    /// The session time (µs) of the last frame delivered, for reading the devices in time order.
    private(set) var lastTime: Int64 = 0

    /// Opens `device` with its active format's options.
    /// - Throws: ``CaptureDeviceError/openFailed(device:reason:)``.
    init(device: CaptureDevice, sessionStartWallClock: Int64, cancellation: CancellationFlag) throws {
        self.device = device
        self.sessionStartWallClock = sessionStartWallClock
        var options = device.source.options
        if device.source.formatName == "v4l2", let format = device.activeFormat {
            options["video_size"] = "\(format.width)x\(format.height)"
            if let range = format.frameRateRanges.first {
                options["framerate"] = "\(range.minFrameDuration.timescale)/\(range.minFrameDuration.value)"
            }
            options["input_format"] = ["YUYV": "yuyv422", "MJPG": "mjpeg", "H264": "h264", "NV12": "nv12"][format.pixelFormat] ?? "yuyv422"
        }
        do {
            input = try InputFile(device: device.source.device, formatName: device.source.formatName, options: options,
                                  cancellation: cancellation)
            guard input.streamCount > 0 else { throw CaptureDeviceError.openFailed(device: device.uniqueID, reason: "no stream") }
            let stream = input.stream(at: 0)
            timeBase = stream.pointee.time_base
            decoder = try Decoder(stream: stream, threads: 1)
            packet = try Packet()
            frame = try Frame()
        } catch let error as CaptureDeviceError {
            throw error
        } catch {
            throw CaptureDeviceError.openFailed(device: device.uniqueID, reason: String(describing: error))
        }
        mediaType = device.activeFormat ?? CaptureDevice.Format(sampleRate: 0, channelCount: 0)
    }

    /// True for a sound device.
    var isAudio: Bool { device.hasMediaType(.audio) }

    /// Reads one packet (blocking until the device has one) and hands each decoded frame to `deliver` with its
    /// session time in microseconds.
    /// - Throws: ``CaptureDeviceError/disconnected(_:)`` when the device stops delivering (end of stream, EIO).
    func readNext(_ deliver: (Frame, Int64) throws -> Void) throws {
        let hasPacket: Bool
        do { hasPacket = try input.readPacket(into: packet) } catch {
            throw CaptureDeviceError.disconnected(device.uniqueID)
        }
        guard hasPacket else { throw CaptureDeviceError.disconnected(device.uniqueID) }
        guard packet.streamIndex == 0 else { return }
        _ = try decoder.send(packet)
        while try decoder.receive(into: frame) == .frame {
            let stamp = frame.bestEffortTimestamp != cmedia_AV_NOPTS_VALUE() ? frame.bestEffortTimestamp : frame.pts
            var micros = av_rescale_q(stamp, timeBase, AVRational(num: 1, den: 1_000_000))
            if device.source.clock == .wallClock { micros -= sessionStartWallClock }
            lastTime = micros
            try deliver(frame, micros)
        }
    }
}
