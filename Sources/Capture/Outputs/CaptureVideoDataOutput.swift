import Composition
import SpliceFFmpeg

/// Delivers the session's video frames to code (AVFoundation's `AVCaptureVideoDataOutput`), as a stream of
/// ``CaptureVideoFrame``s converted to ``videoSettings``, oriented and mirrored as the connection says, each with its
/// session-clock time.
///
/// ``frames()`` plays the part of `setSampleBufferDelegate(_:queue:)`: frames flow to the latest stream asked for,
/// from then on; none are converted while nobody listens. What happens to a consumer slower than the camera is
/// ``alwaysDiscardsLateVideoFrames``.
public final class CaptureVideoDataOutput: CaptureOutput {
    struct State: Sendable {
        var settings = CaptureVideoSettings()
        var discardsLateFrames = true
        var queueCapacity = 4
        var connections: [CaptureConnection] = []
        var queue: SampleQueue<CaptureVideoFrame>?
    }

    let state = Locked(State())

    /// An output delivering BGRA at the device's size, discarding late frames (AVFoundation's defaults).
    public init() {}

    /// Video.
    public var acceptedMediaTypes: Set<MediaType> { [.video] }

    /// The connection made when the session started (one, for the video input).
    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    /// The pixel format and size of the delivered frames (default BGRA at the device's size). Read for each frame,
    /// so a change applies from the next one.
    public var videoSettings: CaptureVideoSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// The pixel formats ``videoSettings`` can ask for (AVFoundation's `availableVideoPixelFormatTypes`).
    public var availableVideoPixelFormats: [CaptureVideoSettings.PixelFormat] { CaptureVideoSettings.PixelFormat.allCases }

    /// True (the default, as in AVFoundation): a consumer that is still busy when a new frame arrives gets only the
    /// newest frame when it asks again; every frame replaced is counted (``droppedFrameCount``, and each frame's
    /// ``CaptureVideoFrame/droppedFrameCountBefore``). The session never waits.
    ///
    /// False: frames wait in a queue of at most ``maxQueuedFrameCount`` frames; when it is full the session's thread
    /// waits for the consumer (back-pressure), so no frame is dropped here and memory stays bounded — a device that
    /// is not read meanwhile may drop frames itself (V4L2's buffer ring), and a movie being recorded waits too. Read
    /// when ``frames()`` is called.
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { state.withLock { $0.discardsLateFrames } }
        set { state.withLock { $0.discardsLateFrames = newValue } }
    }

    /// The longest queue when ``alwaysDiscardsLateVideoFrames`` is false, frames (default 4, at least 1). Read when
    /// ``frames()`` is called.
    public var maxQueuedFrameCount: Int {
        get { state.withLock { $0.queueCapacity } }
        set { state.withLock { $0.queueCapacity = max(1, newValue) } }
    }

    /// Frames dropped for the current stream because the consumer was late (0 when frames are queued).
    public var droppedFrameCount: Int { state.withLock { $0.queue?.droppedCount ?? 0 } }

    /// The most frames that waited in the current stream's queue at once (at most ``maxQueuedFrameCount``; 1 when
    /// late frames are discarded): for checking that a slow consumer did not make memory grow.
    public var peakQueuedFrameCount: Int { state.withLock { $0.queue?.peakQueuedCount ?? 0 } }

    /// The frames from now on, until the session stops (AVFoundation's sample-buffer delegate). A new call replaces
    /// the previous stream, which ends. Call it before or while the session runs.
    public func frames() -> CaptureSampleStream<CaptureVideoFrame> {
        let queue = state.withLock { state -> SampleQueue<CaptureVideoFrame> in
            state.queue?.finish()
            let queue = SampleQueue<CaptureVideoFrame>(
                policy: state.discardsLateFrames ? .newest : .backPressure(capacity: state.queueCapacity))
            state.queue = queue
            return queue
        }
        return CaptureSampleStream(queue: queue)
    }

    /// The stream being fed, nil when nobody listens.
    var activeQueue: SampleQueue<CaptureVideoFrame>? {
        state.withLock { state in
            guard let queue = state.queue, !queue.isFinished else { return nil }
            return queue
        }
    }

    /// Ends the current stream (the session stopped).
    func finishStream() { state.withLock { $0.queue }?.finish() }
}

extension CaptureVideoDataOutput: ConnectableOutput {
    func connect(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }
}
