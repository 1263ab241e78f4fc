import Foundation
import SpliceDocument

extension OpenTimelineIO {
    /// The nested compositions `loaded`'s segments name — documents named as sources and, for a timeline, the
    /// documents of its nested Stacks — each loaded (its own nested ones too), by its file's standardized path; for
    /// ``text(for:timeline:nested:relativeTo:)`` to write them as nested Stacks.
    ///
    /// - Parameter loaded: the document.
    /// - Returns: every nested composition, at any depth.
    /// - Throws: ``SpliceDocument/DocumentError`` for a nested document that does not load, or `CancellationError`.
    public static func nestedCompositions(of loaded: LoadedDocument) async throws -> [String: LoadedDocument] {
        var found: [String: LoadedDocument] = [:]
        var pending = [loaded]
        while let document = pending.popLast() {
            let folder = document.url.deletingLastPathComponent()
            for segment in document.document.composition.tracks.flatMap(\.segments) {
                let file = DocumentSources.url(for: segment.source, folder: folder).standardizedFileURL
                guard file.isFileURL, file.pathExtension.lowercased() == "json", found[file.path] == nil else { continue }
                let inner = try await CompositionDocument.load(
                    from: file, assetLoader: CompositionDocument.nestingAssetLoader(
                        intermediatesIn: FileManager.default.temporaryDirectory, enclosing: [loaded.url, file]))
                found[file.path] = inner
                pending.append(inner)
            }
        }
        return found
    }
}
