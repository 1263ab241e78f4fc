import Composition
import Foundation
import SpliceFFmpeg

/// The container metadata an export writes: the items set on the session over those carried from a source file
/// (``AssetExportSession/carriesSourceMetadata`` is the rule, written down there; SpliceFFmpeg's
/// `ContainerMetadata` is the rule every writer shares).
enum CarriedMetadata {
    /// `items` (which win, renamed to libavformat's keys) followed by the items `ContainerMetadata` carries from
    /// `sourceURL`'s container metadata, in the source's order.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when the source cannot be opened; `CancellationError`.
    static func items(
        _ items: [(String, String)], carriedFrom sourceURL: URL?, cancellation: CancellationFlag
    ) throws -> [MetadataItem] {
        let set = ContainerMetadata.written(items.map { MetadataItem(key: $0.0, value: $0.1) })
        guard let sourceURL else { return set }
        let source: [(key: String, value: String)]
        do {
            source = try InputFile(url: sourceURL, cancellation: cancellation).metadata
        } catch {
            throw ExportError.reading(error, source: sourceURL)
        }
        return set + ContainerMetadata.carried(from: source, under: set)
    }
}
