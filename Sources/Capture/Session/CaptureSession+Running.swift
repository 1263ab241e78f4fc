import Foundation
import SpliceFFmpeg

extension CaptureSession {
    /// Starts capturing (AVFoundation's `startRunning`): applies the preset to the video devices, makes the
    /// outputs' connections and opens the devices on the session's thread. Returns at once; ``events`` reports
    /// `.started`, or `.runtimeError` when a device cannot be opened. Ignored while running or configuring.
    public func startRunning() {
        let (inputs, outputs, preset, stop): ([CaptureDeviceInput], [any CaptureOutput], Preset, CancellationFlag?) = state.withLock { state in
            guard !state.isRunning, state.configurationDepth == 0 else { return ([], [], .high, nil) }
            let stop = CancellationFlag()
            state.isRunning = true
            state.isInterrupted = false
            state.stop = stop
            return (state.inputs, state.outputs, state.preset, stop)
        }
        guard let stop else { return }
        for input in inputs where input.device.hasMediaType(.video) && !input.device.isLockedForConfiguration {
            if let format = input.device.format(for: preset) { input.device.applyPresetFormat(format) }
        }
        for output in outputs.compactMap({ $0 as? ConnectableOutput }) {
            output.connect(inputs.flatMap { input in
                input.device.mediaTypes.intersection(output.acceptedMediaTypes).sorted { $0.rawValue > $1.rawValue }
                    .map { CaptureConnection(mediaType: $0, inputDevice: input.device) }
            })
        }
        let devices = inputs.map(\.device)
        let engineOutputs = SessionEngine.Outputs(outputs)
        engineOutputs.photo.forEach { $0.setAccepting(true) }
        WorkerThread.start(name: "splice-capture") {
            SessionEngine(session: self, devices: devices, outputs: engineOutputs, stop: stop).run()
        }
    }

    /// Stops capturing (AVFoundation's `stopRunning`): a recording in progress ends cleanly at the last frame read,
    /// its file finished. Returns at once; ``events`` reports `.stopped` when the devices are closed.
    public func stopRunning() {
        state.withLock { $0.stop }?.cancel()
    }

    /// Called by the engine when it has stopped.
    func markStopped() {
        state.withLock { state in
            state.isRunning = false
            state.stop = nil
        }
        emit(.stopped)
    }

    /// Called by the engine when a device stopped delivering.
    func markInterrupted(deviceID: String) {
        state.withLock { $0.isInterrupted = true }
        emit(.interrupted(deviceID: deviceID))
    }
}
