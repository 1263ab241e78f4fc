import Capture
import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Devices coming and going, with a real PulseAudio the tests start in user space (and stop by PID): a null sink
/// loaded and unloaded while `splice devices --watch` runs, and unloaded under a running `splice record`. Both run
/// `splice` as a child: libpulse reads PULSE_SERVER once per process. When PulseAudio cannot start here, one line
/// says the suite was skipped and why (CI installs it: scripts/packages/capture.list).
@Suite("Device hot-plug (PulseAudio in user space)", .serialized)
struct HotPlugTests {
    /// A PulseAudio server with the null sink `vsink`, its environment, and a way to run `pactl`.
    struct Pulse {
        let server: UserSpaceService
        let environment: [String: String]
        let scratch: ScratchDirectory

        /// Runs `pactl` with `arguments` (bounded: 20 s) and returns its standard output.
        func pactl(_ arguments: [String]) async throws -> String {
            guard let path = UserSpaceService.find("pactl") else { throw UserSpaceService.Unavailable(reason: "pactl is not installed") }
            let output = scratch.file("pactl-\(UUID().uuidString).out")
            let process = try ChildProcess(executable: path, arguments: arguments, environment: environment,
                                           standardOutput: output, standardError: output)
            defer { process.stop() }
            let ended = await process.wait(seconds: 60)
            let text = TextFile.text(of: output)
            try #require(ended && process.exitCode == 0, "pactl \(arguments): \(text)")
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Starts PulseAudio, or prints the one skip line and returns nil.
    private func startPulse(_ scratch: ScratchDirectory, suite: String) throws -> Pulse? {
        let runtime = scratch.file("xdg")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = runtime.appendingPathComponent("pulse/native").path
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "HOME": scratch.url.path, "PULSE_SERVER": "unix:\(socket)"]
        do {
            let server = try UserSpaceService(
                name: "PulseAudio", executable: "pulseaudio",
                arguments: ["--daemonize=no", "--exit-idle-time=-1", "-n", "--disallow-exit", "--disable-shm=yes",
                            "--load=module-null-sink sink_name=vsink", "--load=module-native-protocol-unix",
                            "--log-target=stderr"],
                environment: environment, log: scratch.file("pulse.log")) { FileManager.default.fileExists(atPath: socket) }
            guard UserSpaceService.find("pactl") != nil, UserSpaceService.find("paplay") != nil else {
                server.stop()
                throw UserSpaceService.Unavailable(reason: "pactl or paplay is not installed")
            }
            return Pulse(server: server, environment: environment, scratch: scratch)
        } catch {
            UserSpaceService.reportSkip(suite, error)
            return nil
        }
    }

    /// Waits (bounded by `seconds`, watched from a plain thread: ``whenCondition(timeout:_:_:)``) until the file at
    /// `url` contains `text`; false on the deadline.
    private func waitFor(_ text: String, in url: URL, seconds: Double) async throws -> Bool {
        await whenCondition(timeout: seconds, { TextFile.text(of: url).contains(text) }) { true }
            ?? false
    }

    @Test("splice devices --watch: a null sink loaded and unloaded is reported connected, then disconnected")
    func watchReportsAudioSources() async throws {
        let scratch = try ScratchDirectory("hotplug-watch")
        defer { scratch.remove() }
        guard let pulse = try startPulse(scratch, suite: "hot-plug suite") else { return }
        defer { pulse.server.stop() }
        let out = scratch.file("watch.out"), err = scratch.file("watch.err")
        let watcher = try ChildProcess(executable: try SpliceExecutable.url().path, arguments: ["devices", "--watch"],
                                       environment: pulse.environment, standardOutput: out, standardError: err)
        defer { watcher.stop() }
        // The baseline is listed before this line is printed: the sink loaded after it must be reported.
        #expect(try await waitFor("watching for devices", in: err, seconds: 120), "\(TextFile.text(of: err))")
        let module = try await pulse.pactl(["load-module", "module-null-sink", "sink_name=second"])
        #expect(try await waitFor("connected pulse:second.monitor", in: out, seconds: 120),
                "watch printed: \(TextFile.text(of: out))")
        _ = try await pulse.pactl(["unload-module", module])
        #expect(try await waitFor("disconnected pulse:second.monitor", in: out, seconds: 120),
                "watch printed: \(TextFile.text(of: out))")
        watcher.send(SIGTERM)
        #expect(await watcher.wait(seconds: 60) && watcher.exitCode == 0, "exit \(watcher.exitCode.map(String.init) ?? "none")")
        let lines = TextFile.text(of: out).split(separator: "\n")
        // Nothing else came or went (vsink stayed; virtual devices are never reported).
        #expect(lines.count == 2, "\(lines)")
    }

    @Test("a source unloaded mid-recording: deviceWasDisconnected, the file playable up to there, no hang")
    func sourceVanishesMidRecording() async throws {
        let scratch = try ScratchDirectory("hotplug-record")
        defer { scratch.remove() }
        guard let pulse = try startPulse(scratch, suite: "hot-plug suite") else { return }
        defer { pulse.server.stop() }
        let module = try await pulse.pactl(["load-module", "module-null-sink", "sink_name=second"])
        // 180 s of a 440 Hz sine at amplitude 0.5 into the sink that will vanish (the unplug comes once 1 s of it is
        // recorded, which a starved machine may reach minutes late): one second (440 whole periods) made sample by
        // sample, then repeated.
        var second = Data(capacity: 48_000 * 4)
        for index in 0..<48_000 {
            let value = Int16((16384 * sin(2 * Double.pi * 440 * Double(index) / 48_000)).rounded())
            withUnsafeBytes(of: value.littleEndian) { second.append(contentsOf: $0); second.append(contentsOf: $0) }
        }
        var tone = Data(capacity: 180 * second.count)
        for _ in 0..<180 { tone.append(second) }
        let raw = try scratch.write("tone.raw", tone)
        let player = try ChildProcess(
            executable: try #require(UserSpaceService.find("paplay")),
            arguments: ["--raw", "--format=s16le", "--rate=48000", "--channels=2", "--device=second", raw.path],
            environment: pulse.environment, standardOutput: scratch.file("paplay.log"), standardError: scratch.file("paplay.log"))
        defer { player.stop() }

        let url = scratch.file("vanishing.mp4")
        let out = scratch.file("record.out"), err = scratch.file("record.err")
        let recorder = try ChildProcess(
            executable: try SpliceExecutable.url().path,
            arguments: ["record", "--video", "none", "--audio", "pulse:second.monitor", "-o", url.path],
            environment: pulse.environment, standardOutput: out, standardError: err)
        defer { recorder.stop() }
        // Unplugged once at least a second of sound is recorded (the progress line reads 0:01).
        #expect(try await waitFor("recording 0:01", in: err, seconds: 150), "\(TextFile.text(of: err))")
        _ = try await pulse.pactl(["unload-module", module])
        let ended = await recorder.wait(seconds: 120)
        let printed = TextFile.text(of: out) + TextFile.text(of: err)
        #expect(ended, "splice record did not end within 120 s of the unplug: \(printed)")
        #expect(recorder.exitCode == 0, "\(printed)")
        #expect(printed.contains("pulse:second.monitor was disconnected (the file is complete and playable)"), "\(printed)")
        // The session's runtime error, as `splice record` prints the session's `.runtimeError` event.
        #expect(printed.contains("splice: pulse:second.monitor: the device was disconnected"), "\(printed)")
        // Playable: it decodes, with the sound recorded before the unplug (the progress line showed 0:01, at least
        // 0.5 s) and the tone in it. A starved machine makes PulseAudio's null sink skip, so the tone may have gaps,
        // and AAC rings at a gap's edges (the file's single highest sample overshoots there): the tone's level is the
        // median of the peaks of the 20 ms windows that hold sound, not its zero crossings or its one highest sample.
        let movie = try decodeMovie(url)
        let seconds = Double(movie.samples.count) / 48_000
        #expect(seconds >= 0.5, "\(seconds) s of sound")
        let window = 960
        let peaks = stride(from: 0, to: movie.samples.count - window + 1, by: window)
            .map { start in movie.samples[start ..< start + window].map(abs).max() ?? 0 }
            .filter { $0 > 0.05 }
            .sorted()
        let level = peaks.isEmpty ? 0 : peaks[peaks.count / 2]
        #expect(abs(level - 0.5) < 0.05, "tone level \(level): the median of \(peaks.count) windows' peaks")
    }
}
