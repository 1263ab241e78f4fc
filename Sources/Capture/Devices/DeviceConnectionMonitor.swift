import Foundation
import SpliceFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// Watches for devices coming and going on its own thread (``CaptureDevice/connectionEvents(pollInterval:)``):
/// inotify on `/dev` for V4L2 nodes, polling for audio-server sources and X11 displays. The listing made when it
/// is created is the baseline (no events for devices already there).
final class DeviceConnectionMonitor: Sendable {
    /// Where the monitor looks: the system's listings, or stand-ins in tests.
    struct Sources: Sendable {
        /// The directory watched with inotify for `video*` nodes (`/dev`).
        var deviceDirectory: String
        /// The V4L2 cameras now (read again after a `video*` node changed).
        var cameras: @Sendable () -> [CaptureDevice]
        /// The audio-server sources and ALSA PCMs now (polled); nil when a listing failed. A failure is not taken
        /// for every source gone (a busy server may not answer once); three in a row are (the server has gone).
        var audio: @Sendable () -> [CaptureDevice]?
        /// The X11 screens now, given those already known (polled; a display is opened only when new).
        var screens: @Sendable ([String: CaptureDevice]) -> [String: CaptureDevice]

        /// This machine's devices.
        static let system = Sources(
            deviceDirectory: "/dev", cameras: { V4L2Discovery.systemDevices() },
            audio: {
                guard let pulse = AudioServerDevices.listedDevices(), let alsa = AlsaDevices.listedDevices() else { return nil }
                return pulse + alsa
            },
            screens: { DeviceConnectionMonitor.currentScreens(known: $0) })
    }

    let pollInterval: Double
    let sources: Sources
    let report: @Sendable (CaptureDevice.ConnectionEvent) -> Void
    private let stopFlag = CancellationFlag()
    /// The devices there when the monitor was made (the baseline), handed to the thread.
    private let baseline: Locked<(cameras: [String: CaptureDevice], audio: [String: CaptureDevice], screens: [String: CaptureDevice])>

    /// The inotify descriptor watching ``Sources/deviceDirectory`` (−1 without inotify); closed in `deinit`.
    private let watch: Int32

    /// Starts watching the device directory, then lists the devices there now on the calling thread (the baseline:
    /// no events for them) — in that order, so that a device added after this returns, even before the thread
    /// starts, is always reported.
    init(pollInterval: Double, sources: Sources = .system, report: @escaping @Sendable (CaptureDevice.ConnectionEvent) -> Void) {
        self.pollInterval = pollInterval
        self.sources = sources
        self.report = report
        // inotify on the device directory: a V4L2 node created or removed (IN_CREATE, IN_DELETE; udev may also
        // move it in place).
        let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if watch >= 0 {
            _ = inotify_add_watch(watch, sources.deviceDirectory, UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM))
        }
        self.watch = watch
        baseline = Locked((Self.byID(sources.cameras()), Self.byID(sources.audio() ?? []), sources.screens([:])))
    }

    deinit {
        if watch >= 0 { close(watch) }
    }

    /// Starts the watcher thread.
    func start() {
        WorkerThread.start(name: "splice-device-monitor") { [self] in run() }
    }

    /// Ends the watcher thread (within 0.1 s).
    func stop() { stopFlag.cancel() }

    private func run() {
        var (cameras, audio, screens) = baseline.withLock { $0 }
        var lastPoll = Date()
        var failedAudioListings = 0
        while !stopFlag.isCancelled {
            if Self.waitForVideoNodeChange(watch, milliseconds: 100) {
                usleep(200_000)  // udev creates the by-id/by-path links just after the node
                Self.drain(watch)
                cameras = compare(cameras, Self.byID(sources.cameras()))
            }
            guard Date().timeIntervalSince(lastPoll) >= pollInterval, !stopFlag.isCancelled else { continue }
            lastPoll = Date()
            if let listed = sources.audio() {
                failedAudioListings = 0
                audio = compare(audio, Self.byID(listed))
            } else {
                failedAudioListings += 1
                if failedAudioListings >= 3 { audio = compare(audio, [:]) }
            }
            screens = compare(screens, sources.screens(screens))
        }
    }

    /// Reports the difference between `old` and `new` (by ``CaptureDevice/uniqueID``) and returns the devices to keep:
    /// the old instances of devices still there, the new ones of devices that appeared.
    private func compare(_ old: [String: CaptureDevice], _ new: [String: CaptureDevice]) -> [String: CaptureDevice] {
        var kept: [String: CaptureDevice] = [:]
        for (id, device) in old.sorted(by: { $0.key < $1.key }) {
            if new[id] != nil { kept[id] = device } else {
                device.markDisconnected()
                report(.disconnected(device))
            }
        }
        for (id, device) in new.sorted(by: { $0.key < $1.key }) where old[id] == nil {
            kept[id] = device
            report(.connected(device))
        }
        return kept
    }

    private static func byID(_ devices: [CaptureDevice]) -> [String: CaptureDevice] {
        Dictionary(devices.map { ($0.uniqueID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The X11 screens now: known ones kept as they are (a display is opened only when it is new).
    static func currentScreens(known: [String: CaptureDevice]) -> [String: CaptureDevice] {
        let sockets = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp/.X11-unix")) ?? []
        var screens: [String: CaptureDevice] = [:]
        for name in sockets where name.hasPrefix("X") {
            guard let number = Int(name.dropFirst()) else { continue }
            let id = "x11:\(number).0"
            if let device = known[id] ?? ScreenDevices.device(display: ":\(number)") { screens[id] = device }
        }
        return screens
    }

    /// Waits up to `milliseconds` for inotify to report a `video*` name in the watched directory; false on timeout (or without
    /// inotify, after sleeping the time).
    private static func waitForVideoNodeChange(_ watch: Int32, milliseconds: Int32) -> Bool {
        guard watch >= 0 else {
            usleep(UInt32(milliseconds) * 1000)
            return false
        }
        var descriptor = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var sawVideo = false
        while true {
            let count = read(watch, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self).hasPrefix("video") { sawVideo = true }
                offset = nameStart + length
            }
        }
        return sawVideo
    }

    /// Reads and drops pending inotify events.
    private static func drain(_ watch: Int32) {
        guard watch >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(watch, &buffer, buffer.count) > 0 {}
    }
}
