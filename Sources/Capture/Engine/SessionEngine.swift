import Composition
import Foundation
import SpliceFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// The session's thread: opens the devices, reads them in time order, meters the audio connections' channels, feeds
/// the movie outputs' writers, and closes everything when the session stops or a device fails. Every FFmpeg owner lives and dies here.
struct SessionEngine {
    let session: CaptureSession
    let devices: [CaptureDevice]
    let outputs: Outputs
    let stop: CancellationFlag

    var movieOutputs: [CaptureMovieFileOutput] { outputs.movie }

    func run() {
        // The clock `av_gettime` reads (CLOCK_REALTIME, µs), which wall-clock devices stamp their packets with.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let startWallClock = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
        var readers: [DeviceReader] = []
        do {
            for device in devices {
                readers.append(try DeviceReader(device: device, sessionStartWallClock: startWallClock, cancellation: stop))
            }
        } catch {
            let failure = error as? CaptureDeviceError ?? .openFailed(device: "?", reason: String(describing: error))
            session.emit(.runtimeError(failure))
            for output in movieOutputs { Self.rejectPending(output) }
            outputs.finish()
            session.markStopped()
            return
        }
        session.emit(.started)
        let delivery = OutputDelivery(outputs: outputs, stop: stop)
        let vanished = watchForRemoval()
        defer { vanished?.monitor.stop() }
        var writers: [ObjectIdentifier: (MovieWriter, AsyncStream<CaptureRecordingEvent>.Continuation)] = [:]
        var streams: [ObjectIdentifier: LiveStream] = [:]
        var latest: Int64 = 0
        var failure: CaptureRecordingError?
        while !stop.isCancelled, failure == nil, !readers.isEmpty {
            for output in movieOutputs { startOrStop(output, writers: &writers, readers: readers, now: latest) }
            for output in outputs.liveStream { startOrStopStream(output, streams: &streams, writers: writers, now: latest) }
            guard let reader = readers.min(by: { $0.lastTime < $1.lastTime }) else { break }
            do {
                let meters = reader.isAudio ? audioConnections(of: reader.device) : []
                try reader.readNext { frame, time in
                    latest = max(latest, time)
                    for connection in meters { connection.meter(frame) }
                    if reader.isAudio { delivery.deliverAudio(frame, at: time, from: reader.device) } else {
                        delivery.deliverVideo(frame, at: time, from: reader.device)
                    }
                    for stream in streams.values { stream.append(frame, at: time, isAudio: reader.isAudio) }
                    for (writer, _) in writers.values {
                        if reader.isAudio { try writer.appendAudio(frame, at: time) } else { try writer.appendVideo(frame, at: time) }
                    }
                }
                // A device the server removed while its stream was moved elsewhere (PulseAudio rescues the streams
                // of a removed source): still a disconnection, as AVFoundation reports an unplugged device.
                if let id = vanished?.id.withLock({ $0 }), let device = devices.first(where: { $0.uniqueID == id }) {
                    throw CaptureDeviceError.disconnected(device.uniqueID)
                }
            } catch let error as CaptureDeviceError {
                if stop.isCancelled { break }
                let id: String
                if case .disconnected(let gone) = error { id = gone } else { id = reader.device.uniqueID }
                devices.first { $0.uniqueID == id }?.markDisconnected()
                session.markInterrupted(deviceID: id)
                session.emit(.runtimeError(error))
                failure = .deviceWasDisconnected(id)
            } catch let error as CaptureRecordingError {
                failure = error
            } catch {
                failure = .writeFailed(path: "?", reason: FailureReason.words(for: error))
            }
            for output in movieOutputs {
                guard let (writer, continuation) = writers[ObjectIdentifier(output)] else { continue }
                output.state.withLock { state in
                    state.recordedDuration = MediaTime(value: writer.recordedDuration, timescale: 1_000_000)
                    state.recordedFileSize = writer.recordedFileSize
                }
                if writer.isComplete || failure != nil {
                    Self.finish(writer, output: output, continuation: continuation, error: failure ?? writer.endReason)
                    writers[ObjectIdentifier(output)] = nil
                }
            }
        }
        for stream in streams.values { Self.end(stream, writers: writers) }
        for output in outputs.liveStream {
            guard let (_, continuation) = output.state.withLock({ state -> (URL, AsyncStream<CaptureLiveStreamOutput.Event>.Continuation)? in
                defer { state.pendingStart = nil }
                return state.pendingStart
            }) else { continue }
            continuation.finish()
        }
        for output in movieOutputs {
            if let (writer, continuation) = writers[ObjectIdentifier(output)] {
                Self.finish(writer, output: output, continuation: continuation, error: failure)
            }
            Self.rejectPending(output)
        }
        readers.removeAll()
        outputs.finish()
        session.markStopped()
    }

    /// Watches the session's real devices (not the virtual ones) for removal, every 0.5 s: the ID of the first
    /// removed, and the monitor to stop; nil when every device is virtual. Only the listings of the kinds in use
    /// are read (a session with a PulseAudio source lists PulseAudio's sources, never the X displays).
    private func watchForRemoval() -> (monitor: DeviceConnectionMonitor, id: Locked<String?>)? {
        let watched = Set(devices.filter { !$0.isVirtual }.map(\.uniqueID))
        guard !watched.isEmpty else { return nil }
        let kinds: Set<String> = Set(devices.filter { !$0.isVirtual }.map { $0.source.formatName })
        var sources = DeviceConnectionMonitor.Sources.system
        if !kinds.contains("v4l2") { sources.cameras = { [] } }
        // A screen is gone when its display's socket is: no display is opened to find out (other displays on the
        // machine are none of the session's business).
        let screens = devices.filter { $0.source.formatName == "x11grab" }
        sources.screens = { _ in
            var present: [String: CaptureDevice] = [:]
            for screen in screens where ScreenDevices.socketExists(for: screen) { present[screen.uniqueID] = screen }
            return present
        }
        let (pulse, alsa) = (kinds.contains("pulse"), kinds.contains("alsa"))
        sources.audio = {
            var found: [CaptureDevice] = []
            if pulse {
                guard let listed = AudioServerDevices.listedDevices() else { return nil }
                found += listed
            }
            if alsa {
                guard let listed = AlsaDevices.listedDevices() else { return nil }
                found += listed
            }
            return found
        }
        let id = Locked<String?>(nil)
        let monitor = DeviceConnectionMonitor(pollInterval: 0.5, sources: sources) { event in
            if case .disconnected(let device) = event, watched.contains(device.uniqueID) {
                id.withLock { $0 = $0 ?? device.uniqueID }
            }
        }
        monitor.start()
        return (monitor, id)
    }

    /// The enabled audio connections from `device` (of the movie and audio data outputs), whose ``CaptureConnection/audioChannels`` meter its sound.
    private func audioConnections(of device: CaptureDevice) -> [CaptureConnection] {
        (movieOutputs.flatMap(\.connections) + outputs.audioData.flatMap(\.connections)).filter {
            $0.mediaType == .audio && $0.inputDevice.uniqueID == device.uniqueID && $0.isEnabled
        }
    }

    /// Opens a writer for a pending recording, or marks the end of a running one after ``stopRecording()``.
    private func startOrStop(_ output: CaptureMovieFileOutput,
                             writers: inout [ObjectIdentifier: (MovieWriter, AsyncStream<CaptureRecordingEvent>.Continuation)],
                             readers: [DeviceReader], now: Int64) {
        let key = ObjectIdentifier(output)
        if let (writer, continuation) = writers[key] {
            let (stopRequested, pauseRequested) = output.state.withLock { ($0.stopRequested, $0.pauseRequested) }
            if stopRequested {
                writer.end(at: writer.movieTime(ofSessionTime: now), reason: nil)
            } else if pauseRequested != writer.isPaused {
                if pauseRequested { writer.pause(at: now) } else { writer.resume(at: now) }
                continuation.yield(pauseRequested ? .paused(writer.settings.url) : .resumed(writer.settings.url))
            }
            return
        }
        guard let (url, continuation) = output.state.withLock({ state -> (URL, AsyncStream<CaptureRecordingEvent>.Continuation)? in
            defer { state.pendingStart = nil }
            return state.pendingStart
        }) else { return }
        let (settings, connections) = output.state.withLock { ($0.settings, $0.connections) }
        let enabled = connections.filter(\.isEnabled)
        let videoConnection = enabled.first { $0.mediaType == .video }
        let video = videoConnection?.inputDevice.activeFormat
        let audioConnection = enabled.first { $0.mediaType == .audio }
        let audio = audioConnection?.inputDevice.activeFormat
        func micros(_ time: MediaTime) -> Int64? {
            time.isNumeric ? Int64((time.seconds * 1_000_000).rounded()) : nil
        }
        var writerSettings = MovieWriterSettings(
            url: url,
            video: video.map { ($0.width, $0.height, Int32($0.maxFrameRate.rounded())) },
            audioSampleRate: audio?.sampleRate,
            maxDuration: micros(settings.maxRecordedDuration),
            maxFileSize: settings.maxRecordedFileSize > 0 ? settings.maxRecordedFileSize : nil,
            minFreeDiskSpace: settings.minFreeDiskSpaceLimit > 0 ? settings.minFreeDiskSpaceLimit : nil,
            fragmentInterval: max(micros(settings.movieFragmentInterval) ?? 10_000_000, 100_000),
            initialFragmentInterval: max(micros(settings.initialMovieFragmentInterval) ?? 1_000_000, 100_000),
            displayMatrix: videoConnection.flatMap { connection in
                let orientation = connection.frameOrientation
                guard orientation != .identity, let format = video else { return nil }
                return orientation.displayMatrix(width: format.width, height: format.height)
            },
            audioChannels: audioConnection?.audioChannels ?? [],
            metadata: settings.metadata.tags(now: Date()))
        // A session that can stream: the recording is encoded as the stream wants it, so one encode feeds both.
        if let live = outputs.liveStream.first {
            writerSettings.rateControl = live.rateControl(frameRate: writerSettings.video?.frameRate ?? 30)
        }
        do {
            let writer = try MovieWriter(settings: writerSettings, requestedStart: now)
            output.state.withLock { $0.isRecording = true }
            continuation.yield(.started(url))
            writers[key] = (writer, continuation)
        } catch {
            continuation.yield(.finished(CaptureRecordingResult(url: url, recordedDuration: .zero, fileSize: 0, error: error,
                                                                droppedFrameCount: 0)))
            continuation.finish()
        }
    }

    private static func finish(_ writer: MovieWriter, output: CaptureMovieFileOutput,
                               continuation: AsyncStream<CaptureRecordingEvent>.Continuation, error: CaptureRecordingError?) {
        var error = error
        do { try writer.finish() } catch let failure { error = failure }
        let size = (try? FileManager.default.attributesOfItem(atPath: writer.settings.url.path)[.size] as? Int64) ?? 0
        let duration: MediaTime
        if let video = writer.settings.video {
            duration = MediaTime(value: writer.lastVideoSlot + 1, timescale: video.frameRate)
        } else if let rate = writer.settings.audioSampleRate {
            duration = MediaTime(value: writer.writtenAudioSamples, timescale: Int32(rate))
        } else {
            duration = .zero
        }
        output.state.withLock { state in
            state.isRecording = false
            state.stopRequested = false
            state.pauseRequested = false
            state.recordedDuration = duration
            state.recordedFileSize = size
        }
        continuation.yield(.finished(CaptureRecordingResult(url: writer.settings.url, recordedDuration: duration, fileSize: size,
                                                            error: error, droppedFrameCount: writer.droppedFrames)))
        continuation.finish()
    }

    private static func rejectPending(_ output: CaptureMovieFileOutput) {
        guard let (url, continuation) = output.state.withLock({ state -> (URL, AsyncStream<CaptureRecordingEvent>.Continuation)? in
            defer { state.pendingStart = nil }
            return state.pendingStart
        }) else { return }
        continuation.yield(.finished(CaptureRecordingResult(url: url, recordedDuration: .zero, fileSize: 0, error: .noDataCaptured,
                                                            droppedFrameCount: 0)))
        continuation.finish()
    }
}
