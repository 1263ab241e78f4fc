import Delivery
import Foundation

extension LoadedDocument {
    /// The folder of the package the document's `export.package` asks for (relative paths read from the document's
    /// folder); nil when it asks for none.
    public var packageFolder: URL? {
        export.package?.folder.map { DocumentPackage.url($0, in: url.deletingLastPathComponent()) }
    }

    /// A packager of the document's composition, video composition and audio mix, with the ladder, segment duration
    /// and manifest formats of its `export.package` (the packager's defaults where it gives none, both manifests
    /// when it asks for no package).
    ///
    /// - Parameter overwrite: replace a package folder already there (refused by default).
    public func makePackager(overwrite: Bool = false) -> AdaptiveBitratePackager {
        let packager = AdaptiveBitratePackager(asset: composition)
        packager.videoComposition = videoComposition
        packager.audioMix = audioMix
        if let package = export.package {
            if let ladder = package.ladder { packager.ladder = ladder }
            if let duration = package.segmentDuration { packager.segmentDuration = duration }
            if !package.manifestFormats.isEmpty { packager.manifestFormats = package.manifestFormats }
        }
        packager.overwritesExistingOutput = overwrite
        return packager
    }
}

extension DocumentPackage {
    /// Whether the JSON document at `url` has an `export.package` member, read without describing its sources (for
    /// a command deciding between a file and a package before loading); false for a file that is missing or does
    /// not parse — loading it then reports why.
    package static func isRequested(byDocumentAt url: URL) -> Bool {
        guard let tree = try? DocumentReader.parsedFile(url, noun: "document") else { return false }
        return tree["export"]?["package"] != nil
    }
}
