import Foundation

extension AssetExportSession {
    /// Plan the video as spans to copy from the sources unchanged and spans to re-encode (smart rendering), and
    /// report them in ``smartRenderReport``. False by default. Needs encoder settings (not the passthrough preset:
    /// ``ExportError/unsupportedSettings(_:)``).
    ///
    /// A span can be copied where one H.264 source is on screen untouched (identity layer, opacity 1, no crop, no
    /// overlay, speed 1) and its pictures match the output (size, pixel format, colour tags, square pixels, the
    /// output's constant frame rate): whole groups of pictures starting at an IDR picture are copied, partial groups
    /// at cuts and everything else are re-encoded. This version plans and reports only: writing copied and
    /// re-encoded pieces into one stream is not implemented yet, so the whole video is re-encoded and the report's
    /// ``SmartRenderReport/fallback`` says so.
    public var smartRendering: Bool {
        get { request.withLock { $0.smartRendering } }
        set { request.withLock { $0.smartRendering = newValue } }
    }

    /// What smart rendering planned, once ``export()`` has read the sources (nil without ``smartRendering`` or
    /// video, and before the export starts writing).
    public var smartRenderReport: SmartRenderReport? { state.withLock { $0.smartRenderReport } }
}
