import Capture
import Composition
import Foundation

/// A wait that took longer than its deadline: what was awaited and the deadline, seconds.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var what: String
    var seconds: Double
    var description: String { "\(what) did not finish within \(seconds) s" }
}

/// What finished first in ``withDeadline(_:_:_:)``.
enum DeadlineOutcome<Value: Sendable>: Sendable { case value(Value), timedOut }

/// Runs `body` and fails with ``DeadlineExceeded`` when it takes longer than `seconds`: `onTimeout` is called then
/// (to unblock waits that do not end on cancellation, such as a photo request: stop the session) and the body is
/// cancelled (data-output streams and `Task.sleep` end on cancellation).
func withDeadline<Value: Sendable>(_ seconds: Double, _ what: String, onTimeout: @escaping @Sendable () -> Void = {},
                                   _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    return try await withThrowingTaskGroup(of: DeadlineOutcome<Value>.self) { group in
        group.addTask { .value(try await body()) }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            onTimeout()
            return .timedOut
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), case .value(let value) = first else {
            throw DeadlineExceeded(what: what, seconds: seconds)
        }
        return value
    }
}

/// A session running `devices` into `outputs` while `body` runs (bounded by `seconds`: 240 by default, for a
/// machine whose load starves the test process for minutes — the full suite has been seen so); `prepare` sees the session
/// after it started (connections exist then), before `body`. The session is stopped afterwards and its `.stopped`
/// event awaited (bounded too).
func withRunningSession<Value: Sendable>(
    _ devices: [CaptureDevice], outputs: [any CaptureOutput], deadline seconds: Double = 240,
    prepare: (CaptureSession) -> Void = { _ in },
    _ body: @escaping @Sendable (CaptureSession) async throws -> Value
) async throws -> Value {
    let session = CaptureSession()
    for device in devices { session.addInput(try CaptureDeviceInput(device: device)) }
    for output in outputs { session.addOutput(output) }
    let events = session.events
    session.startRunning()
    prepare(session)
    let result: Result<Value, any Error>
    do {
        result = .success(try await withDeadline(seconds, "the session's work", onTimeout: { session.stopRunning() }) {
            try await body(session)
        })
    } catch {
        result = .failure(error)
    }
    session.stopRunning()
    _ = try await withDeadline(60, "the session's .stopped event") {
        for await event in events {
            if case .stopped = event { return true }
        }
        return false
    }
    return try result.get()
}

/// The colour of the virtual colour chart (``CaptureDevice/virtualColorChart(width:height:frameRate:)``) at camera
/// pixel (`x`, `y`) of a `width` × `height` chart: red, green / blue, white quadrants.
func chartColor(x: Int, y: Int, width: Int = 640, height: Int = 480) -> (Int, Int, Int) {
    switch (x < width / 2, y < height / 2) {
    case (true, true): return (255, 0, 0)
    case (false, true): return (0, 255, 0)
    case (true, false): return (0, 0, 255)
    case (false, false): return (255, 255, 255)
    }
}

/// The centres of the four quadrants of a `width` × `height` picture.
func quadrantCentres(width: Int, height: Int) -> [(x: Int, y: Int)] {
    [(width / 4, height / 4), (3 * width / 4, height / 4), (width / 4, 3 * height / 4), (3 * width / 4, 3 * height / 4)]
}

/// True when `value` is within `tolerance` of `expected` in every channel.
func close(_ value: (Int, Int, Int), _ expected: (Int, Int, Int), within tolerance: Int) -> Bool {
    abs(value.0 - expected.0) <= tolerance && abs(value.1 - expected.1) <= tolerance && abs(value.2 - expected.2) <= tolerance
}
