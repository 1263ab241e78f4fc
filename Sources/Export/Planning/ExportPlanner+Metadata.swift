import Composition
import Foundation
import SpliceFFmpeg

extension ExportPlanner {
    /// Refuses a ``ExportRequest/metadata`` location (an item whose common key is `location`) that is not ISO 6709
    /// text, by the rule every writer shares (SpliceFFmpeg's `ContainerMetadata.checkLocations`).
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the key and the value.
    func checkMetadataLocations() throws {
        do {
            try ContainerMetadata.checkLocations(request.metadata)
        } catch {
            throw ExportError.unsupportedSettings(error.description)
        }
    }
}
