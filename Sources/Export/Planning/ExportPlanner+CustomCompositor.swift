import Foundation

extension ExportPlanner {
    /// Refuses the settings a custom compositor (``AssetExportSession/customVideoCompositor``) cannot be combined
    /// with, before anything is opened: the passthrough preset (nothing is rendered) and smart rendering (it plans
    /// copies of untouched spans; every frame is the compositor's). Concurrent segments carry it to every part.
    /// - Throws: ``ExportError/passthroughNotPossible(_:)`` or ``ExportError/unsupportedSettings(_:)``.
    func checkCustomCompositor() throws {
        guard request.customVideoCompositor != nil else { return }
        if settings == nil {
            throw ExportError.passthroughNotPossible("a custom video compositor renders every frame; choose a preset that encodes")
        }
        if request.smartRendering {
            throw ExportError.unsupportedSettings(
                "smartRendering copies untouched spans of the sources; with a custom video compositor every frame is rendered")
        }
    }
}
