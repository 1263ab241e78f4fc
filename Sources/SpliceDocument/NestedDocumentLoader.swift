import Composition
import Export
import Foundation

extension CompositionDocument {
    /// An asset loader (``DocumentAssetLoader``) that also takes other composition documents as sources: a source
    /// path ending in `.json` is loaded as a document (with this same loader, one level deeper), pre-composed with its
    /// own video composition and audio mix (``Export/NestedComposition/precompose(to:)``: a lossless FFV1 + PCM
    /// movie written into `directory`) and described as that movie; any other path is read with
    /// `Asset.load(from:)`. The nested document's own export settings are not used.
    ///
    /// - Parameters:
    ///   - directory: where the intermediates are written (`splice-nested-<UUID>.mov`); they are left there for
    ///     the caller's exports and removed by the caller (the temporary directory's cleaning, by default).
    ///   - enclosing: the documents being loaded around this one, outermost first (the document itself last).
    /// - Returns: a loader that throws ``Export/NestedCompositionError/cycle(_:)`` for a document that names one of
    ///   `enclosing` (itself included), listing the chain.
    public static func nestingAssetLoader(intermediatesIn directory: URL, enclosing: [URL]) -> DocumentAssetLoader {
        let chain = enclosing.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
        return { url in
            guard url.isFileURL, url.pathExtension.lowercased() == "json" else { return try await Asset.load(from: url) }
            let document = url.standardizedFileURL.resolvingSymlinksInPath()
            if chain.contains(document) { throw NestedCompositionError.cycle(chain + [document]) }
            let loaded = try await CompositionDocument.load(
                from: url, assetLoader: nestingAssetLoader(intermediatesIn: directory, enclosing: chain + [document]))
            let nested = NestedComposition(
                composition: loaded.composition, videoComposition: loaded.videoComposition, audioMix: loaded.audioMix)
            return try await nested.precompose(in: directory)
        }
    }
}
