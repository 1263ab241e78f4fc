import Foundation
import Splice

/// `splice record -o OUT [--stream URL] [--video ID] [--audio ID] [--preset P] [--max-duration T] [--max-size B]
/// [--still-every T [--still-format jpeg|png]] [--orientation O] [--mirrored] …`.
enum RecordCommand {
    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        let streamURL = try streamDestination(arguments)
        let path = arguments.value("output")
        guard path != nil || streamURL != nil else {
            Usage.report(CommandLineArguments.UsageError(message: "record needs -o OUT.mp4, --stream URL or both", command: .record))
            throw CommandExit(status: .usage)
        }
        if let path, !["mp4", "mov"].contains(URL(fileURLWithPath: path).pathExtension.lowercased()) {
            throw Usage.fail("the movie is .mp4 or .mov: give a file name ending in one of them, not '\(path)'", command: .record)
        }
        // Every value, then the output location, before any device is opened (a recording never replaces a file).
        let output = CaptureMovieFileOutput()
        let maxDuration = try arguments.value("max-duration").map { text throws(CommandExit) in try time(text, option: "max-duration") }
        if let maxDuration { output.maxRecordedDuration = maxDuration }
        if let text = arguments.value("fragment-interval") { output.movieFragmentInterval = try time(text, option: "fragment-interval") }
        if let text = arguments.value("max-size") { output.maxRecordedFileSize = try bytes(text, option: "max-size") }
        if let text = arguments.value("min-free-space") { output.minFreeDiskSpaceLimit = try bytes(text, option: "min-free-space") }
        let stills = try StillOptions(arguments)
        guard stills == nil || path != nil else {
            throw Usage.fail("--still-every writes beside the movie: give -o OUT.mp4 too", command: .record)
        }
        let gain = try volume(arguments)
        if let path { try OutputLocation.check(path, existing: .refuseAlways) }
        let devices = try resolveDevices(arguments)
        let session = CaptureSession()
        for device in devices {
            do { session.addInput(try CaptureDeviceInput(device: device)) } catch {
                Console.error("splice: \(error)")
                throw CommandExit(status: .invalidInput)
            }
        }
        if let preset = arguments.value("preset").flatMap(CaptureSession.Preset.init(rawValue:)) {
            do { try session.setSessionPreset(preset) } catch {
                Console.error("splice: \(error)")
                throw CommandExit(status: .invalidInput)
            }
        }
        if path != nil { session.addOutput(output) }
        // The live-stream output's defaults: 2.5 Mb/s H.264 at constant bit rate, 128 kb/s AAC, a key frame every 2 s.
        let live = streamURL.map { _ in CaptureLiveStreamOutput() }
        if let live { session.addOutput(live) }
        let photoOutput = stills.map { _ in CapturePhotoOutput() }
        if let photoOutput { session.addOutput(photoOutput) }

        let events = session.events
        session.startRunning()
        orient(session, arguments)
        if let gain { setVolume(gain, in: session) }
        let recording = path.map { output.startRecording(to: URL(fileURLWithPath: $0)) }
        let streaming = await startStreaming(live, to: streamURL)
        var stillTask: Task<Int, Never>?
        if let stills, let photoOutput, let path { stillTask = takeStills(stills, output: photoOutput, beside: URL(fileURLWithPath: path)) }
        let signals = SignalCancellation {
            output.stopRecording()
            live?.stopStreaming()
        }
        defer { signals.restore() }
        let progress = Task {
            while !Task.isCancelled {
                try await Task.sleep(nanoseconds: 1_000_000_000)
                guard recording != nil else { continue }
                let meter = levels(output).map { "  \($0)" } ?? ""
                Console.error("recording \(Console.clock(output.recordedDuration.seconds))  \(Console.bytes(output.recordedFileSize))\(meter)")
            }
        }
        var result: CaptureRecordingResult?
        if let recording {
            for await event in recording {
                switch event {
                case .started(let url): Console.error("splice: recording to \(url.path) (Ctrl-C stops and finishes the file)")
                case .paused: Console.error("splice: paused")
                case .resumed: Console.error("splice: resumed")
                case .finished(let finished): result = finished
                }
            }
            live?.stopStreaming()
        } else if let live, let maxDuration {
            // Streaming alone: --max-duration ends the stream after that long.
            let stop = Task {
                try await Task.sleep(nanoseconds: UInt64(maxDuration.seconds * 1_000_000_000))
                live.stopStreaming()
            }
            _ = await streaming?.result
            stop.cancel()
        }
        progress.cancel()
        let streamed = await streaming?.value ?? true
        if let stillTask {
            stillTask.cancel()
            let count = await stillTask.value
            Console.error("splice: \(count) still\(count == 1 ? "" : "s") written")
        }
        if recording != nil, let meter = levels(output) { Console.error("levels at the end: \(meter)") }
        session.stopRunning()
        for await event in events {
            if case .runtimeError(let error) = event { Console.error("splice: \(error)") }
            if case .stopped = event { break }
        }
        if let result {
            let reason = result.error.map { " (\($0))" } ?? ""
            Console.out("\(result.url.path): \(Console.number(result.recordedDuration.seconds)) s, \(result.fileSize) bytes\(reason)")
            if !result.recordingSuccessfullyFinished {
                if case .fileAlreadyExists? = result.error { throw CommandExit(status: .invalidInput) }
                throw CommandExit(status: .renderFailed)
            }
        } else if recording != nil {
            throw CommandExit(status: .renderFailed)
        }
        if !streamed { throw CommandExit(status: .renderFailed) }
    }

    /// The audio connection's levels per channel, as `average -9.03 -9.03 dBFS, peak hold -6.02 -6.02 dBFS`
    /// (``CaptureAudioChannel``: RMS of the last 100 ms, peak held 1 s); nil without sound.
    private static func levels(_ output: CaptureMovieFileOutput) -> String? {
        guard let channels = output.connections.first(where: { $0.mediaType == .audio })?.audioChannels,
              !channels.isEmpty else { return nil }
        let average = channels.map { String(format: "%.2f", $0.averagePowerLevel) }.joined(separator: " ")
        let peak = channels.map { String(format: "%.2f", $0.peakHoldLevel) }.joined(separator: " ")
        return "average \(average) dBFS, peak hold \(peak) dBFS"
    }

    /// The devices named by --video and --audio, or the defaults.
    private static func resolveDevices(_ arguments: CommandLineArguments) throws(CommandExit) -> [CaptureDevice] {
        func find(_ id: String) throws(CommandExit) -> CaptureDevice {
            guard let device = CaptureDevice.device(withUniqueID: id) else {
                Console.error("splice: \(CaptureDeviceError.notFound(id))")
                throw CommandExit(status: .invalidInput)
            }
            return device
        }
        var devices: [CaptureDevice] = []
        let videoID = arguments.value("video")
        if videoID != "none" {
            if let videoID { devices.append(try find(videoID)) } else if let device = CaptureDevice.default(for: .video) { devices.append(device) }
        }
        if let audioID = arguments.value("audio") {
            if audioID != "none" { devices.append(try find(audioID)) }
        } else if devices.first?.isVirtual == true {
            devices.append(try find(devices[0].uniqueID.hasSuffix("-markers") ? "virtual:microphone-markers" : "virtual:microphone"))
        }
        guard !devices.isEmpty else {
            Usage.report(CommandLineArguments.UsageError(message: "record needs at least one device", command: .record))
            throw CommandExit(status: .usage)
        }
        return devices
    }

    /// The time of `--option`, which must be above 0.
    /// - Throws: a usage exit for a time that does not parse or is not positive.
    private static func time(_ text: String, option: String) throws(CommandExit) -> MediaTime {
        let time: MediaTime
        do { time = try TimeSyntax.parse(text) } catch {
            throw Usage.fail("--\(option): \(error)", command: .record)
        }
        guard time.isNumeric, time > .zero else {
            throw Usage.fail("--\(option) takes a time above 0, not '\(text)'", command: .record)
        }
        return time
    }

    private static func bytes(_ text: String, option: String) throws(CommandExit) -> Int64 {
        guard let value = Int64(text), value > 0 else {
            Usage.report(CommandLineArguments.UsageError(message: "--\(option) takes a number of bytes, not '\(text)'",
                                                         command: .record))
            throw CommandExit(status: .usage)
        }
        return value
    }
}
