import Foundation

extension AssetExportSession {
    /// Benchmarking only: true renders a keyframed layer effect by building a filter graph for every frame, the
    /// amounts written into the graph's text, as Splice did before effect ramps were driven by filter commands.
    /// False (default) compiles a ramp of `eq`, `exposure`, `colortemperature` or `gblur` once and sends each frame's
    /// amount to the filter (`avfilter_graph_send_command`); both write the same pixels. `Benchmarks/run`'s W1r
    /// times the two against each other. Not part of the supported API (`@_spi(Benchmarks)`).
    @_spi(Benchmarks)
    public var _rebuildsEffectGraphPerFrame: Bool {
        get { request.withLock { $0.rebuildsEffectGraphPerFrame } }
        set { request.withLock { $0.rebuildsEffectGraphPerFrame = newValue } }
    }
}
