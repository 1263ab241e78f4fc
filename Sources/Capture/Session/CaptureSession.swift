import Composition
import Foundation
import SpliceFFmpeg

/// Joins devices to outputs and runs the capture (AVFoundation's `AVCaptureSession`).
///
/// Configure with ``addInput(_:)``, ``addOutput(_:)`` and ``setSessionPreset(_:)`` — between
/// ``beginConfiguration()`` and ``commitConfiguration()`` the changes apply together — then ``startRunning()``.
/// The devices are read on one dedicated thread; every frame and sound buffer is stamped on one session clock from
/// the device's own timestamps (wall-clock devices: microseconds since the session started; virtual devices share a
/// clock that starts with the session). ``events`` reports start, stop, interruption and runtime errors.
public final class CaptureSession: Sendable {
    struct State: Sendable {
        var preset: Preset = .high
        var inputs: [CaptureDeviceInput] = []
        var outputs: [any CaptureOutput] = []
        var configurationDepth = 0
        var isRunning = false
        var isInterrupted = false
        var listeners: [UUID: AsyncStream<Event>.Continuation] = [:]
        var stop: CancellationFlag?
    }

    let state = Locked(State())

    /// An empty session with preset `.high`.
    public init() {}

    /// The preset (default `.high`).
    public var sessionPreset: Preset { state.withLock { $0.preset } }

    /// True when every video input has a format for `preset`.
    public func canSetSessionPreset(_ preset: Preset) -> Bool {
        inputs.allSatisfy { !$0.device.hasMediaType(.video) || $0.device.supportsSessionPreset(preset) }
    }

    /// Sets the preset; applied to the devices when the session starts.
    /// - Throws: ``CaptureDeviceError/unsupportedFormat(device:format:)`` naming the first input without a format
    ///   for it.
    public func setSessionPreset(_ preset: Preset) throws(CaptureDeviceError) {
        if let input = inputs.first(where: { $0.device.hasMediaType(.video) && !$0.device.supportsSessionPreset(preset) }) {
            throw .unsupportedFormat(device: input.device.uniqueID, format: "preset \(preset.rawValue)")
        }
        state.withLock { $0.preset = preset }
    }

    /// The inputs, in the order added.
    public var inputs: [CaptureDeviceInput] { state.withLock { $0.inputs } }
    /// The outputs, in the order added.
    public var outputs: [any CaptureOutput] { state.withLock { $0.outputs } }
    /// True between ``startRunning()`` and ``stopRunning()`` (or a runtime error).
    public var isRunning: Bool { state.withLock { $0.isRunning } }
    /// True after a device stopped delivering, until the session stops.
    public var isInterrupted: Bool { state.withLock { $0.isInterrupted } }

    /// True when `input` can be added: not running, its device not already in, at most one input per media type.
    public func canAddInput(_ input: CaptureDeviceInput) -> Bool {
        state.withLock { state in
            !state.isRunning && !state.inputs.contains { $0.device.uniqueID == input.device.uniqueID }
                && !state.inputs.contains { !$0.device.mediaTypes.isDisjoint(with: input.device.mediaTypes) }
        }
    }

    /// Adds `input` when ``canAddInput(_:)`` allows (AVFoundation raises otherwise; here nothing changes).
    public func addInput(_ input: CaptureDeviceInput) {
        guard canAddInput(input) else { return }
        state.withLock { $0.inputs.append(input) }
    }

    /// Removes `input` (not while running).
    public func removeInput(_ input: CaptureDeviceInput) {
        state.withLock { state in
            guard !state.isRunning else { return }
            state.inputs.removeAll { $0 === input }
        }
    }

    /// True when `output` is a kind this session runs (movie file, photo, video data, audio data, metadata, live
    /// stream) and is not added yet. Several outputs may take the same input's media.
    public func canAddOutput(_ output: any CaptureOutput) -> Bool {
        guard output is ConnectableOutput else { return false }
        return state.withLock { state in !state.isRunning && !state.outputs.contains { $0 === output } }
    }

    /// Adds `output` when ``canAddOutput(_:)`` allows; its connections are made when the session starts.
    public func addOutput(_ output: any CaptureOutput) {
        guard canAddOutput(output) else { return }
        state.withLock { $0.outputs.append(output) }
    }

    /// Removes `output` (not while running).
    public func removeOutput(_ output: any CaptureOutput) {
        state.withLock { state in
            guard !state.isRunning else { return }
            state.outputs.removeAll { $0 === output }
        }
    }

    /// Starts a batch of configuration changes (nestable).
    public func beginConfiguration() { state.withLock { $0.configurationDepth += 1 } }

    /// Ends a batch; the outermost commit makes the batch's changes visible to a starting session together.
    public func commitConfiguration() { state.withLock { $0.configurationDepth = max(0, $0.configurationDepth - 1) } }

    /// A stream of the session's events from now on (each call gives a new stream; ends when the session stops).
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        state.withLock { $0.listeners[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) } }
        return stream
    }

    func emit(_ event: Event) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(event) }
    }
}
