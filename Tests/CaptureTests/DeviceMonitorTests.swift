@testable import Capture
import Foundation
import SpliceFFmpeg
import SpliceTestSupport
import Testing

/// The hot-plug watcher's inotify path, on a scratch directory standing in for `/dev` (no `/dev/video*` node can be
/// made here): a `video0` file appearing and going makes the camera listing (the recorded C920) be read again.
@Suite("Device monitor: inotify for V4L2 nodes")
struct DeviceMonitorTests {
    @Test("a video node created and removed: the camera is reported connected, then disconnected and not connected")
    func videoNodeComesAndGoes() async throws {
        let scratch = try ScratchDirectory("fake-dev")
        defer { scratch.remove() }
        let node = scratch.file("video0")
        let camera = try #require(RecordedUVCCameras.discovered().first)
        let sources = DeviceConnectionMonitor.Sources(
            deviceDirectory: scratch.url.path,
            cameras: { FileManager.default.fileExists(atPath: node.path) ? [camera] : [] },
            audio: { [] as [CaptureDevice]? }, screens: { _ in [:] })
        let events = Locked<[String]>([])
        let monitor = DeviceConnectionMonitor(pollInterval: 3600, sources: sources) { event in
            events.withLock { $0.append("\(event)") }
        }
        monitor.start()
        defer { monitor.stop() }
        // A name that is not a video node is ignored (and would change nothing here).
        _ = FileManager.default.createFile(atPath: scratch.file("audio0").path, contents: nil)
        _ = FileManager.default.createFile(atPath: node.path, contents: nil)
        #expect(try await waitForEvents(events, count: 1), "\(events.withLock { $0 })")
        try FileManager.default.removeItem(at: node)
        #expect(try await waitForEvents(events, count: 2), "\(events.withLock { $0 })")
        let reported = events.withLock { $0 }
        #expect(reported == ["connected \(camera.uniqueID)\t\(camera.localizedName)",
                             "disconnected \(camera.uniqueID)\t\(camera.localizedName)"])
        #expect(!camera.isConnected)
    }

    /// Waits (60 s at most, watched from a plain thread: ``whenCondition(timeout:_:_:)``) until `count` events were
    /// reported.
    private func waitForEvents(_ events: Locked<[String]>, count: Int) async throws -> Bool {
        await whenCondition(timeout: 60, { events.withLock({ $0.count }) >= count }) { true } ?? false
    }
}
