import Foundation

extension AssetExportSession {
    /// Your own compositor (``VideoCompositing``), called for every output frame in place of the built-in layer
    /// compositing, as AVFoundation's `customVideoCompositorClass` (a value here, not a class). nil (default) uses the
    /// built-in path, unchanged.
    ///
    /// On an HDR canvas the compositor takes and returns `.rgba64` pictures (``VideoCompositing/sourcePixelFormat``;
    /// an `.rgba8` one is refused). The export cannot be combined with the passthrough preset or
    /// ``smartRendering`` (each refused with ``ExportError/unsupportedSettings(_:)`` before any file is written).
    /// With ``concurrentSegments`` every part renders through it in this process (a segment plan for other processes
    /// cannot carry it: ``SegmentError/customCompositorRequired(_:)``). The video composition's overlays are drawn
    /// over the compositor's output.
    public var customVideoCompositor: (any VideoCompositing)? {
        get { request.withLock { $0.customVideoCompositor } }
        set { request.withLock { $0.customVideoCompositor = newValue } }
    }
}
