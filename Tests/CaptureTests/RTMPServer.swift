import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// nginx with Debian's RTMP module, started in user space on 127.0.0.1 for one test (application `live`, its files
/// in the test's scratch folder) and stopped by its PID: the server every RTMP test publishes to.
final class RTMPServer {
    /// Where Debian's `libnginx-mod-rtmp` puts the module nginx loads.
    static let modulePath = "/usr/lib/nginx/modules/ngx_rtmp_module.so"

    /// True when nginx and its RTMP module are installed (nothing is started).
    static var isInstalled: Bool {
        Executable.find("nginx") != nil && FileManager.default.fileExists(atPath: modulePath)
    }

    /// The TCP port it listens on.
    let port: Int
    /// Where it records every stream published as `KEY.flv` (`record all`); nil when it records nothing.
    let recordingFolder: URL?
    private let scratch: ScratchDirectory
    private(set) var service: UserSpaceService

    /// Starts nginx on `port` with its files in `scratch`, recording into `recordingFolder` when given (made here).
    /// - Throws: ``UserSpaceService/Unavailable`` naming why it cannot run here (module missing, nginx exited or
    ///   never listened), for the one skip line; `FileManager`'s error when a file cannot be written.
    init(in scratch: ScratchDirectory, recordingInto recordingFolder: URL? = nil, port: Int = LoopbackPort.free()) throws {
        self.port = port
        self.recordingFolder = recordingFolder
        self.scratch = scratch
        service = try Self.start(port: port, in: scratch, recordingInto: recordingFolder)
    }

    /// ``init(in:recordingInto:port:)``, or nil after the one skip line naming `suite` when nginx cannot run here.
    static func startOrSkip(_ suite: String, in scratch: ScratchDirectory, recordingInto folder: URL? = nil) -> RTMPServer? {
        do { return try RTMPServer(in: scratch, recordingInto: folder) } catch {
            UserSpaceService.reportSkip(suite, error)
            return nil
        }
    }

    /// The running nginx process (signals go to it: SIGKILL, SIGSTOP, SIGCONT).
    var process: ChildProcess { service.process }

    /// `rtmp://127.0.0.1:PORT/live/KEY`, where a stream named `key` is published and read.
    func url(_ key: String) throws -> URL {
        try #require(URL(string: "rtmp://127.0.0.1:\(port)/live/\(key)"))
    }

    /// Starts nginx again on the same port, after the last one was killed.
    /// - Throws: what ``init(in:recordingInto:port:)`` throws.
    func restart() throws {
        service = try Self.start(port: port, in: scratch, recordingInto: recordingFolder)
    }

    /// Stops nginx: continued first (a test may have stopped it with SIGSTOP), then SIGTERM, SIGKILL after 3 s.
    func stop() {
        process.send(SIGCONT)
        service.stop()
    }

    private static func start(port: Int, in scratch: ScratchDirectory, recordingInto folder: URL?) throws -> UserSpaceService {
        guard FileManager.default.fileExists(atPath: modulePath) else {
            throw UserSpaceService.Unavailable(reason: "libnginx-mod-rtmp is not installed (\(modulePath))")
        }
        let record = folder.map { "record all; record_path \($0.path); record_unique off;" } ?? "record off;"
        if let folder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let config = try scratch.write("nginx.conf", """
            load_module \(modulePath);
            daemon off;
            master_process off;
            pid \(scratch.file("nginx.pid").path);
            error_log \(scratch.file("nginx-error.log").path) info;
            events {}
            rtmp { server { listen 127.0.0.1:\(port); application live { live on; \(record) } } }
            """)
        return try UserSpaceService(
            name: "nginx", executable: "nginx",
            arguments: ["-c", config.path, "-p", scratch.url.path, "-e", scratch.file("nginx-error.log").path],
            log: scratch.file("nginx.log")) { LoopbackPort.isListening(port) }
    }
}

/// The prelude every RTMP test shares: a scratch folder labelled `label`, the `ffmpeg`/`ffprobe` readers on PATH
/// (unless `readers` is false) and nginx on a free port, recording into the scratch folder's `recorded` when
/// `recording`; else the one skip line naming `suite` and `body` does not run. The server is stopped and the folder
/// removed afterwards.
/// - Throws: what `body` throws; `FileManager`'s error when the scratch folder cannot be made.
func withRTMPServer(_ suite: String, scratch label: String, readers: Bool = true, recording: Bool = false,
                    _ body: (RTMPServer, ScratchDirectory) async throws -> Void) async throws {
    if readers, !LiveStreamTests.readersAvailable(suite) { return }
    let scratch = try ScratchDirectory(label)
    defer { scratch.remove() }
    let folder = recording ? scratch.file("recorded") : nil
    guard let server = RTMPServer.startOrSkip(suite, in: scratch, recordingInto: folder) else { return }
    defer { server.stop() }
    try await body(server, scratch)
}
