import SpliceFFmpeg

/// A ``VideoCompositing`` that does not ``VideoCompositing/supportsConcurrentRendering``, shared by the part exports
/// of ``AssetExportSession/concurrentSegments``: each part calls it from its own render thread, so the calls are
/// taken one at a time behind a lock, keeping the promise that such a compositor renders one request at a time.
struct SerializedCompositor: VideoCompositing {
    let wrapped: any VideoCompositing
    private let lock = Locked(())

    init(_ wrapped: any VideoCompositing) {
        self.wrapped = wrapped
    }

    var sourcePixelFormat: VideoFrame.PixelFormat { wrapped.sourcePixelFormat }
    var supportsConcurrentRendering: Bool { false }

    func renderFrame(for request: VideoCompositionRequest) throws -> VideoFrame {
        try lock.withLock { _ in try wrapped.renderFrame(for: request) }
    }
}
