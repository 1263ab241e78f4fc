import SpliceFFmpeg
import Foundation

/// Renders a ``VideoPlan``'s output frames on a thread of its own, a few frames ahead of the encoder: decoding and
/// compositing (this thread) run while the export worker encodes and muxes the previous frames (and libx264 its own
/// frame threads), so the stages overlap instead of taking turns.
///
/// The ``VideoCompositor`` — and with it every decoder and filter graph of the picture — is made, used and freed on
/// the render thread alone (confinement, as for every FFmpeg owner). Finished frames cross to the export worker
/// through a bounded ``FrameQueue`` of `capacity` frames: memory stays flat however long the timeline, and the frame
/// structs are recycled, so nothing is allocated per frame. Frames come out in order, `pts` = output frame index.
///
/// The export worker must call ``stop()`` before it returns (also on failure): it wakes the render thread, which
/// stops within one frame, and waits until it has freed everything.
final class VideoRenderThread {
    private let queue: FrameQueue
    private let finished = DispatchSemaphore(value: 0)
    private var stopped = false

    /// Threads of each source decoder when an encoder runs beside the render thread: one per four cores, at least
    /// one. A software video encoder keeps every core busy with its own threads (libx264 runs 1.5 per core), so a
    /// decoder's frame threads add little speed there, while each holds its own decoding context and pictures (at
    /// 1080p H.264, FFmpeg's automatic three threads on two cores hold about 20 MiB more than one).
    static let decoderThreadsBesideEncoder = Int32(max(1, ProcessInfo.processInfo.activeProcessorCount / 4))

    /// Finished frames that may wait for an encoder: one keeps it fed, and each waiting picture is a whole frame
    /// (3 MiB at 1080p 4:2:0, 12 MiB at 2160p). The encoder copies each picture in and returns, and the render
    /// thread renders the next while it encodes; a software encoder's own threads and lookahead go on working
    /// through a short wait for a picture. Two waiting pictures held 3–4 MiB more at W1's peak (the encoder is the
    /// slower stage, so the queue is always full); no CPU difference beyond the machine's drift was measured
    /// (Benchmarks/README.md).
    static let capacityBesideEncoder = 1

    /// Starts rendering frames 0 ..< `plan.frameCount` of `plan`.
    /// - Parameters:
    ///   - capacity: how many finished frames may wait for the encoder (at least 1).
    ///   - decoderThreads: threads of each source decoder (0: FFmpeg's choice, one per core).
    ///   - cancellation: stops the rendering (``next()`` then throws `CancellationError`).
    init(plan: VideoPlan, capacity: Int = 4, decoderThreads: Int32 = 0, cancellation: CancellationFlag) {
        let queue = FrameQueue(capacity: max(1, capacity))
        self.queue = queue
        let finished = self.finished
        WorkerThread.start(name: "splice.video") {
            defer { finished.signal() }
            do {
                let compositor = try VideoCompositor(plan: plan, decoderThreads: decoderThreads, cancellation: cancellation)
                // Burnt-in subtitles are drawn over each finished picture, on its way to the encoder.
                let burner = try plan.subtitleBurnInFile.map { try SubtitleBurner(file: $0, frameDuration: plan.frameDuration, style: plan.subtitleBurnInStyle) }
                let deliver: (Frame) throws -> Void = { frame in
                    if let burner {
                        try burner.burn(frame) { try queue.put(moving: $0) }
                    } else {
                        try queue.put(moving: frame)
                    }
                }
                if let custom = plan.custom, custom.compositor.supportsConcurrentRendering {
                    let window = CustomRenderWindow(
                        compositor: compositor, custom: custom, width: VideoCompositionRequest.maximumConcurrentRequests)
                    try window.run(emit: deliver)
                } else {
                    for index in 0..<plan.frameCount {
                        // Render once the queue has room: a finished picture never waits outside the queue while
                        // the encoder is busy (besides the `capacity` queued, it would be one more picture held).
                        try queue.waitForRoom()
                        try compositor.render(frame: index, emit: deliver)
                    }
                }
                try compositor.finish(emit: deliver)
                queue.finish(error: nil)
            } catch {
                queue.finish(error: error)
            }
        }
    }

    deinit { stop() }

    /// The next rendered frame (its `pts` is its output frame index), or nil after the last one. Blocks until the
    /// render thread has it. Hand the frame back with ``recycle(_:)`` once it is encoded.
    /// - Throws: whatever stopped the rendering (``ExportError``, `CancellationError`), after every frame rendered
    ///   before it has been returned.
    func next() throws -> Frame? { try queue.take() }

    /// Returns a frame obtained from ``next()`` (its buffers are dropped) so the render thread can fill it again.
    func recycle(_ frame: Frame) { queue.recycle(frame) }

    /// Stops the render thread (if still running) and waits until it has ended and freed its decoders and graphs.
    /// Idempotent.
    func stop() {
        guard !stopped else { return }
        stopped = true
        queue.close()
        finished.wait()
    }
}
