import SpliceFFmpeg
import Composition
import Foundation

/// Runs a concurrent custom compositor (``VideoCompositing/supportsConcurrentRendering``) over a plan's frames:
/// the render thread makes each frame's request in order, starts the compositor on a thread of its own for it, and
/// keeps at most `width` requests in flight; it takes the results back strictly in frame order and draws them
/// (``VideoCompositor/composite(customImage:at:sequence:emit:)``), so the output order is the serial path's.
/// Only the user's code runs off the render thread: every FFmpeg owner stays on it.
///
/// When rendering stops early (an error, a cancellation), the requests still in flight are waited for before
/// ``run(emit:)`` returns, so the compositor is never called after the export has ended.
struct CustomRenderWindow {
    let compositor: VideoCompositor
    let custom: CustomCompositorPlan
    /// Requests in flight at most (≥ 1).
    let width: Int

    /// One request's result, filled by its compositor thread, awaited by the render thread.
    final class Pending: Sendable {
        private let result = Locked<Result<VideoFrame, any Error>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        func fulfil(_ value: Result<VideoFrame, any Error>) {
            result.withLock { $0 = value }
            done.signal()
        }

        /// Blocks until the compositor thread has finished.
        func wait() throws -> VideoFrame {
            done.wait()
            done.signal()  // a second wait (the cleanup after a failure) returns at once
            guard let value = result.withLock({ $0 }) else {
                throw ExportError.renderingFailed(stage: "waiting for the custom compositor", reason: "no result")
            }
            return try value.get()
        }
    }

    /// Renders frames 0 ..< `compositor.plan.frameCount` and hands them to `emit` in order.
    /// - Throws: the first error in frame order (``ExportError/customCompositorFailed(time:message:)`` among them),
    ///   `CancellationError`.
    func run(emit: (Frame) throws -> Void) throws {
        let plan = compositor.plan
        var inFlight: [(index: Int, pending: Pending)] = []
        defer { for item in inFlight { _ = try? item.pending.wait() } }
        for index in 0..<plan.frameCount {
            let request = try compositor.customRequest(at: plan.time(ofFrame: index), custom: custom)
            let pending = Pending()
            let custom = self.custom
            WorkerThread.start(name: "splice.compose") { pending.fulfil(Result { try custom.render(request) }) }
            inFlight.append((index, pending))
            if inFlight.count >= max(1, width) { try drawOldest(&inFlight, emit: emit) }
        }
        while !inFlight.isEmpty { try drawOldest(&inFlight, emit: emit) }
    }

    private func drawOldest(_ inFlight: inout [(index: Int, pending: Pending)], emit: (Frame) throws -> Void) throws {
        let oldest = inFlight[0]
        let image = try oldest.pending.wait()
        inFlight.removeFirst()
        try compositor.composite(customImage: image, at: compositor.plan.time(ofFrame: oldest.index),
                                 sequence: oldest.index, emit: emit)
    }
}
