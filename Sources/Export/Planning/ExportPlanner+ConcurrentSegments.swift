import Foundation

extension ExportPlanner {
    /// Refuses the settings concurrent segments (``AssetExportSession/concurrentSegments``) cannot be combined with,
    /// before anything is opened, so ``AssetExportSession/validate()`` refuses them as ``AssetExportSession/export()``
    /// does: a count below 1, the passthrough preset (nothing is encoded, so there are no parts to join), a file
    /// length limit, metadata and smart rendering (each applies to one file written in one pass).
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the setting.
    func checkConcurrentSegments() throws {
        guard let count = request.concurrentSegments else { return }
        guard count >= 1 else {
            throw ExportError.unsupportedSettings("concurrentSegments \(count) must be at least 1 (nil or 1: one ordinary export)")
        }
        guard count > 1 else { return }
        let conflicting: String? = settings == nil ? "the passthrough preset"
            : request.fileLengthLimit != nil ? "fileLengthLimit"
            : !request.metadata.isEmpty ? "metadata"
            : request.smartRendering ? "smartRendering" : nil
        if let conflicting {
            throw ExportError.unsupportedSettings(
                "concurrentSegments \(count) cannot be combined with \(conflicting); set one of them only")
        }
    }
}
