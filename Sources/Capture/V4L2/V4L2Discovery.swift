import Composition
import Foundation

/// Finds V4L2 cameras: every `VIDEO_CAPTURE` node (a UVC camera's metadata node is skipped), with a stable
/// ``CaptureDevice/uniqueID`` from `/dev/v4l/by-id` (else `/dev/v4l/by-path`, else the node), its formats from the
/// enumeration ioctls and its controls.
package enum V4L2Discovery {
    /// The stable name of each node: `by-id/<link>` where a `/dev/v4l/by-id` link points at it, else
    /// `by-path/<link>`. Links are given as link name → target (`../../video0`), as `readlink` returns them.
    package static func stableNames(byID: [String: String], byPath: [String: String]) -> [String: String] {
        var names: [String: String] = [:]
        for (directory, links) in [("by-path", byPath), ("by-id", byID)] {
            for (link, target) in links.sorted(by: { $0.key < $1.key }) {
                let node = "/dev/" + (target.split(separator: "/").last.map(String.init) ?? target)
                names[node] = "\(directory)/\(link)"
            }
        }
        return names
    }

    /// The cameras among `nodes`, opened with `open` (a recorded reply set in tests, the real ioctls otherwise).
    /// Nodes that cannot be opened or are not `VIDEO_CAPTURE` are left out.
    package static func devices(nodes: [String], stableNames: [String: String],
                                open: (String) -> (any V4L2DeviceIO)?) -> [CaptureDevice] {
        nodes.sorted().compactMap { node in
            guard let io = open(node) else { return nil }
            return try? device(io: io, stableName: stableNames[node])
        }
    }

    /// One camera from its node's replies; nil for a node that is not `VIDEO_CAPTURE`.
    package static func device(io: any V4L2DeviceIO, stableName: String?) throws(V4L2IOError) -> CaptureDevice? {
        let capability = try io.capability()
        guard capability.isVideoCapture else { return nil }
        var formats: [CaptureDevice.Format] = []
        for pixelFormat in try io.pixelFormats() {
            for size in try io.frameSizes(pixelFormat: pixelFormat.fourCC) {
                let intervals = try io.frameIntervals(pixelFormat: pixelFormat.fourCC, width: size.width, height: size.height)
                let ranges = intervals
                    .map { CaptureDevice.FrameRateRange(framesPerSecond: $0.denominator, over: $0.numerator) }
                    .sorted { $0.maxFrameRate > $1.maxFrameRate }
                formats.append(CaptureDevice.Format(pixelFormat: pixelFormat.fourCC, width: size.width, height: size.height,
                                                    frameRateRanges: ranges))
            }
        }
        let controls = V4L2Controls(io: io, infos: try io.controls())
        var position = CaptureDevice.Position.unspecified
        if controls.has(V4L2ControlID.cameraOrientation) {
            switch try io.value(ofControl: V4L2ControlID.cameraOrientation) {
            case 0: position = .front
            case 1: position = .back
            default: position = .unspecified
            }
        }
        let stable = stableName ?? io.path
        return CaptureDevice(
            uniqueID: "v4l2:\(stable)", localizedName: capability.card, modelID: "\(capability.driver): \(capability.card)",
            deviceType: .camera, position: position, formats: formats, mediaTypes: [.video],
            source: CaptureSource(formatName: "v4l2", device: io.path, options: [:], clock: .wallClock), controls: controls)
    }

    /// The links in a `/dev/v4l/by-*` directory: name → target.
    static func links(in directory: String) -> [String: String] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return [:] }
        var links: [String: String] = [:]
        for name in names {
            if let target = try? manager.destinationOfSymbolicLink(atPath: directory + "/" + name) { links[name] = target }
        }
        return links
    }

    /// The cameras attached to this machine: `/dev/video*` nodes read through ``SystemV4L2DeviceIO``.
    static func systemDevices() -> [CaptureDevice] {
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
            .filter { $0.hasPrefix("video") }.map { "/dev/" + $0 }
        guard !nodes.isEmpty else { return [] }
        let names = stableNames(byID: links(in: "/dev/v4l/by-id"), byPath: links(in: "/dev/v4l/by-path"))
        return devices(nodes: nodes, stableNames: names) { SystemV4L2DeviceIO(path: $0) }
    }
}
