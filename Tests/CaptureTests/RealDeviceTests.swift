import Capture
import Composition
import Foundation
import SpliceTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Real capture devices, from servers the tests start in user space and stop by PID: a PulseAudio null sink's
/// monitor with a known tone played into it, and an Xvfb screen showing known colours. When a server cannot start
/// here, one line says the suite was skipped and why (CI installs both: scripts/packages/capture.list).
@Suite("Real devices started in user space", .serialized)
struct RealDeviceTests {
    @Test("PulseAudio: a 440 Hz sine at amplitude 0.5 played into a null sink comes back from its monitor at 440 ± 1 Hz, −9.03 ± 0.5 dBFS")
    func pulseAudioMonitor() async throws {
        let scratch = try ScratchDirectory("capture-pulse")
        defer { scratch.remove() }
        let runtime = scratch.file("xdg")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = runtime.appendingPathComponent("pulse/native").path
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "HOME": scratch.url.path, "PULSE_SERVER": "unix:\(socket)"]
        let server: UserSpaceService
        do {
            server = try UserSpaceService(
                name: "PulseAudio", executable: "pulseaudio",
                arguments: ["--daemonize=no", "--exit-idle-time=-1", "-n", "--disallow-exit", "--disable-shm=yes",
                            "--load=module-null-sink sink_name=vsink", "--load=module-native-protocol-unix",
                            "--log-target=stderr"],
                environment: environment, log: scratch.file("pulse.log")) { FileManager.default.fileExists(atPath: socket) }
        } catch {
            UserSpaceService.reportSkip("PulseAudio suite", error)
            return
        }
        defer { server.stop() }

        // 240 s of a 440 Hz sine (the recording starts and ends within it even on a machine loaded enough to delay
        // it by minutes, as a full-suite run at load 46 did past 90 s), amplitude 0.5 (16384 of 32768), both
        // channels, played with paplay: one second (440 whole periods) made sample by sample, then repeated.
        var second = Data(capacity: 48_000 * 4)
        for index in 0..<48_000 {
            let value = Int16((16384 * sin(2 * Double.pi * 440 * Double(index) / 48_000)).rounded())
            withUnsafeBytes(of: value.littleEndian) { second.append(contentsOf: $0); second.append(contentsOf: $0) }
        }
        var tone = Data(capacity: 240 * second.count)
        for _ in 0..<240 { tone.append(second) }
        let raw = try scratch.write("tone.raw", tone)
        guard let paplay = UserSpaceService.find("paplay"), let pactl = UserSpaceService.find("pactl") else {
            UserSpaceService.reportSkip("PulseAudio suite", UserSpaceService.Unavailable(reason: "paplay or pactl is not on PATH"))
            return
        }
        let player = try ChildProcess(
            executable: paplay, arguments: ["--raw", "--format=s16le", "--rate=48000", "--channels=2", "--device=vsink", raw.path],
            environment: environment, standardOutput: scratch.file("paplay.log"), standardError: scratch.file("paplay.log"))
        defer { player.stop() }
        // Recording starts once the server lists paplay's stream as an input of the sink (the tone is playing).
        let listing = scratch.file("sink-inputs.txt")
        let playing = await whenCondition(timeout: 60, {
            try? FileManager.default.removeItem(at: listing)
            guard let list = try? ChildProcess(executable: pactl, arguments: ["list", "short", "sink-inputs"],
                                               environment: environment, standardOutput: listing)
            else { return false }
            guard list.waitBlocking(seconds: 10) else {
                list.stop()
                return false
            }
            return !TextFile.text(of: listing).isEmpty
        }) { true }
        try #require(playing != nil, "paplay's stream did not reach the sink within 60 s")

        // Recorded by a `splice record` child talking to this server (the client library reads PULSE_SERVER once
        // per process, so the child gets its own environment): the device is found by its ID as `devices` prints it.
        let url = scratch.file("monitor.mp4")
        let output = scratch.file("record.out")
        let recorder = try ChildProcess(
            executable: try SpliceExecutable.url().path,
            arguments: ["record", "--video", "none", "--audio", "pulse:vsink.monitor", "--max-duration", "2s", "-o", url.path],
            environment: environment, standardOutput: output, standardError: output)
        defer { recorder.stop() }
        let ended = await recorder.wait(seconds: 60)
        let printed = TextFile.text(of: output)
        #expect(ended && recorder.exitCode == 0, "splice record: \(printed)")
        #expect(printed.contains(": 2 s,") && printed.contains("maximum recorded duration"), "\(printed)")
        #expect(player.isRunning, """
            paplay stopped early (exit \(player.exitCode.map(String.init) ?? "none"), signal \(player.terminationSignal.map(String.init) ?? "none")): \
            \(TextFile.text(of: scratch.file("paplay.log")))
            """)
        let movie = try decodeMovie(url)
        #expect(movie.frames.isEmpty)
        #expect(abs(movie.samples.count - 96_000) <= 1024, "\(movie.samples.count) samples")
        let frequency = movie.frequency(from: 0.25, to: 1.75), level = movie.level(from: 0.25, to: 1.75)
        #expect(abs(frequency - 440) <= 1, "\(frequency) Hz")
        #expect(abs(level - 20 * log10(0.5 / 2.0.squareRoot())) <= 0.5, "\(level) dBFS")
        // The connection's levels as `splice record` reports them at the end agree with the file: the same tone.
        let reported = printed.split(separator: "\n").last { $0.hasPrefix("levels at the end: ") }
            .map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
        #expect(reported.count == 4, "levels line: \(printed)")
        if reported.count == 4 {
            for average in reported[0..<2] { #expect(abs(average - level) <= 0.5, "average \(average) dBFS, file \(level) dBFS") }
            for peak in reported[2..<4] { #expect(abs(peak - 20 * log10(0.5)) <= 0.5, "peak hold \(peak) dBFS") }
        }

        // The same tone recorded at volume 0.5 (AVCaptureAudioChannel.volume on every channel): 6.02 dB lower in
        // the file, and in the reported levels.
        let quieter = scratch.file("monitor-half.mp4")
        let halfOutput = scratch.file("record-half.out")
        let halfRecorder = try ChildProcess(
            executable: try SpliceExecutable.url().path,
            arguments: ["record", "--video", "none", "--audio", "pulse:vsink.monitor", "--max-duration", "2s", "--volume", "0.5",
                        "-o", quieter.path],
            environment: environment, standardOutput: halfOutput, standardError: halfOutput)
        defer { halfRecorder.stop() }
        let halfEnded = await halfRecorder.wait(seconds: 60)
        let halfPrinted = TextFile.text(of: halfOutput)
        #expect(halfEnded && halfRecorder.exitCode == 0, "splice record --volume 0.5: \(halfPrinted)")
        #expect(player.isRunning, "paplay stopped before the second recording")
        let halfLevel = try decodeMovie(quieter).level(from: 0.25, to: 1.75)
        print("PulseAudio monitor: \(level) dBFS at volume 1, \(halfLevel) dBFS at volume 0.5 (difference \(halfLevel - level) dB)")
        #expect(abs(halfLevel - level + 20 * log10(2.0)) <= 0.2, "volume 1: \(level) dBFS, volume 0.5: \(halfLevel) dBFS")
        let halfReported = halfPrinted.split(separator: "\n").last { $0.hasPrefix("levels at the end: ") }
            .map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
        #expect(halfReported.count == 4 && halfReported[0..<2].allSatisfy { abs($0 - halfLevel) <= 0.5 }, "levels: \(halfPrinted)")
    }

    @Test("Xvfb + x11grab: a screen painted red on the left and blue on the right records those colours (BT.709 limited)")
    func x11Screen() async throws {
        let scratch = try ScratchDirectory("capture-x11")
        defer { scratch.remove() }
        guard let number = (90..<140).first(where: {
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") && !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock")
        }) else {
            UserSpaceService.reportSkip("Xvfb suite", UserSpaceService.Unavailable(reason: "no free X display number"))
            return
        }
        let server: UserSpaceService
        do {
            server = try UserSpaceService(
                name: "Xvfb", executable: "Xvfb", arguments: [":\(number)", "-screen", "0", "320x240x24", "-nolisten", "tcp"],
                log: scratch.file("xvfb.log")) { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") }
        } catch {
            UserSpaceService.reportSkip("Xvfb suite", error)
            return
        }
        defer { server.stop() }
        let painter = try XlibPainter(displayName: ":\(number)")
        defer { painter.close() }
        painter.fill(x: 0, y: 0, width: 160, height: 240, rgb: 0xFF0000)
        painter.fill(x: 160, y: 0, width: 160, height: 240, rgb: 0x0000FF)

        let device = try #require(CaptureDevice.device(withUniqueID: "x11:\(number).0"))
        #expect(device.deviceType == .screen && device.formats.first?.width == 320 && device.formats.first?.height == 240)
        let url = scratch.file("screen.mp4")
        let result = try await record([device], to: url) { $0.maxRecordedDuration = MediaTime(seconds: 1) }
        #expect(result.error == .maximumDurationReached)
        let movie = try decodeMovie(url)
        // x11grab grabs when asked: on a loaded machine a late grab leaves its slot empty, never a doubled frame.
        #expect(result.recordedDuration <= MediaTime(seconds: 1) && result.recordedDuration.seconds >= 0.5, "\(result.recordedDuration)")
        #expect(movie.frames.count >= 15 && movie.frames.count <= 30, "\(movie.frames.count) frames")
        let red = try #require(movie.ycbcr(x: 80, y: 120)), blue = try #require(movie.ycbcr(x: 240, y: 120))
        // BT.709 limited range: red (63, 102, 240), blue (32, 240, 118).
        #expect(abs(red.0 - 63) <= 3 && abs(red.1 - 102) <= 3 && abs(red.2 - 240) <= 3, "red pixel \(red)")
        #expect(abs(blue.0 - 32) <= 3 && abs(blue.1 - 240) <= 3 && abs(blue.2 - 118) <= 3, "blue pixel \(blue)")
    }
}
