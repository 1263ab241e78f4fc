import Composition
import Foundation
import SpliceFFmpeg

/// The container metadata an export writes: the items set on the session over those carried from a source file
/// (``AssetExportSession/carriesSourceMetadata`` is the rule, written down there).
enum CarriedMetadata {
    /// Keys that describe a file's container or writer rather than its content; never carried.
    private static let containerKeys: Set<String> = ["major_brand", "minor_version", "compatible_brands", "encoder"]

    /// `items` (which win) followed by the carried items of `sourceURL`'s container metadata, in the source's order.
    /// A source item is left out when an item has its raw key or its common key, when it describes the container,
    /// or when it is a language variant of a key also present without one.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` when the source cannot be opened; `CancellationError`.
    static func items(
        _ items: [(String, String)], carriedFrom sourceURL: URL?, cancellation: CancellationFlag
    ) throws -> [(String, String)] {
        guard let sourceURL else { return items }
        let source: [(key: String, value: String)]
        do {
            source = try InputFile(url: sourceURL, cancellation: cancellation).metadata
        } catch {
            throw ExportError.reading(error, source: sourceURL)
        }
        let sourceKeys = Set(source.map { $0.key.lowercased() })
        let setKeys = Set(items.map { $0.0.lowercased() })
        let setCommonKeys = Set(items.compactMap { MetadataItem(key: $0.0, value: $0.1).commonKey })
        let carried = source.filter { entry in
            let item = MetadataItem(key: entry.key, value: entry.value)
            let base = MetadataItem.baseKey(entry.key)
            if containerKeys.contains(base.lowercased()) || setKeys.contains(base.lowercased()) { return false }
            if base != entry.key && sourceKeys.contains(base.lowercased()) { return false }
            if let common = item.commonKey, setCommonKeys.contains(common) { return false }
            return true
        }
        return items + carried.map { ($0.key, $0.value) }
    }

    /// Whether `items` need the MP4/MOV muxer's `use_metadata_tags` (the QuickTime `mdta` key space): any key in
    /// reverse-DNS form (`com.apple.quicktime.make`), which the user-data boxes cannot hold.
    static func needsMetadataKeySpace(_ items: [(String, String)]) -> Bool {
        items.contains { $0.0.contains(".") }
    }
}
