import AudioMix
import Composition
import Export
import Foundation
import VideoComposition

/// A composition document turned into Splice's models, ready to export: what ``CompositionDocument/load(from:assetLoader:)``
/// returns.
public struct LoadedDocument: Sendable {
    /// Which form the document was written in.
    public enum Form: String, Sendable, Hashable {
        /// The full form (``CompositionDocument``).
        case full
        /// The short form (``ShortFormDocument``), expanded.
        case short
        /// An OpenTimelineIO timeline (`.otio`), mapped to the full form by the `TimelineInterchange` module.
        case openTimelineIO = "OpenTimelineIO"
    }

    /// The document file.
    public var url: URL
    /// The form it was written in.
    public var form: Form
    /// The full form: the document itself, or the expansion of a short-form document.
    public var document: CompositionDocument
    /// The composition, with every segment's source track described.
    public var composition: MutableComposition
    /// The video composition; nil when the document has none (the export then uses
    /// `MutableVideoComposition(propertiesOf:)`).
    public var videoComposition: MutableVideoComposition?
    /// The audio mix; nil when the document has none.
    public var audioMix: MutableAudioMix?
    /// The export settings (defaults when the document has none).
    public var export: DocumentExport
    /// The description of every file the document names, by the source text as written.
    public var assets: [String: Asset]

    /// A loaded document.
    public init(
        url: URL, form: Form, document: CompositionDocument, composition: MutableComposition,
        videoComposition: MutableVideoComposition?, audioMix: MutableAudioMix?, export: DocumentExport, assets: [String: Asset]
    ) {
        self.url = url
        self.form = form
        self.document = document
        self.composition = composition
        self.videoComposition = videoComposition
        self.audioMix = audioMix
        self.export = export
        self.assets = assets
    }

    /// An export session configured as the document says: its preset or settings (when it gives neither,
    /// ``Export/ExportSettings/defaults(for:)`` for the file type: the document's, else `outputURL`'s extension),
    /// video composition, audio mix, time range, metadata, file type and file length limit.
    ///
    /// - Parameters:
    ///   - outputURL: where the file goes.
    ///   - overwrite: replace a file already there (AVFoundation refuses by default).
    public func makeExportSession(outputURL: URL, overwrite: Bool = false) -> AssetExportSession {
        let session: AssetExportSession
        if let preset = export.preset {
            session = AssetExportSession(asset: composition, preset: preset)
        } else {
            // No codec named: the container's defaults (`-o out.webm` gives VP9 + Opus, not a refusal).
            let fileType = export.fileType ?? FileType(pathExtension: outputURL.pathExtension) ?? .mp4
            session = AssetExportSession(asset: composition, settings: export.settings ?? ExportSettings.defaults(for: fileType))
        }
        session.outputURL = outputURL
        session.overwritesExistingFile = overwrite
        session.videoComposition = videoComposition
        session.audioMix = audioMix
        if let fileType = export.fileType { session.outputFileType = fileType }
        if let timeRange = export.timeRange { session.timeRange = timeRange }
        if let metadata = export.metadata { session.metadata = metadata }
        if let optimize = export.optimizeForNetworkUse { session.shouldOptimizeForNetworkUse = optimize }
        if let interval = export.movieFragmentInterval { session.movieFragmentInterval = interval }
        if let limit = export.fileLengthLimit { session.fileLengthLimit = limit }
        if let smart = export.smartRendering { session.smartRendering = smart }
        if let cuts = export.passthroughAudioCuts { session.passthroughAudioCuts = cuts }
        if let segments = export.concurrentSegments { session.concurrentSegments = segments }
        if let codec = export.subtitleCodec { session.subtitleCodec = codec }
        if let chapters = export.chapters { session.chapterMetadataGroups = chapters }
        if let carries = export.carriesSourceMetadata { session.carriesSourceMetadata = carries }
        return session
    }

    /// The full form as JSON text for people (`splice expand`): members in the models' order, short arrays and
    /// objects on one line, file paths relative to the document's folder where they are inside or near it.
    ///
    /// - Parameter target: the folder the text will be saved in (`splice convert`), when it is not the document's:
    ///   the segments' sources, written relative to the document's folder, are then rewritten relative to it.
    /// - Throws: `EncodingError` if a value cannot be JSON (a non-finite number).
    public func expandedJSON(relativeTo target: URL? = nil) throws -> String {
        var node = try JSONNodeEncoder.encode(document)
        let documentFolder = url.deletingLastPathComponent()
        let folder = target ?? documentFolder
        if let target, target.standardizedFileURL != documentFolder.standardizedFileURL,
           var tracks = node["composition"]?["tracks"]?.elements {
            for trackIndex in tracks.indices {
                guard var segments = tracks[trackIndex]["segments"]?.elements else { continue }
                for segmentIndex in segments.indices {
                    guard let source = segments[segmentIndex]["source"]?.string else { continue }
                    let sourceURL = DocumentSources.url(for: source, folder: documentFolder)
                    segments[segmentIndex]["source"] = JSONNode(.string(DocumentSources.relativePath(of: sourceURL, from: target)))
                }
                tracks[trackIndex]["segments"] = JSONNode(.array(segments))
            }
            node["composition"]?["tracks"] = JSONNode(.array(tracks))
        }
        if var overlays = node["videoComposition"]?["overlays"]?.elements {
            for index in overlays.indices {
                guard var content = overlays[index]["content"] else { continue }
                if let image = content["image"]?.string, let imageURL = URL(string: image) {
                    content["image"] = JSONNode(.string(DocumentSources.relativePath(of: imageURL, from: folder)))
                }
                if var text = content["text"], let font = text["fontFile"]?.string, let fontURL = URL(string: font) {
                    text["fontFile"] = JSONNode(.string(DocumentSources.relativePath(of: fontURL, from: folder)))
                    content["text"] = text
                }
                overlays[index]["content"] = content
            }
            node["videoComposition"]?["overlays"] = JSONNode(.array(overlays))
        }
        return node.prettyPrinted() + "\n"
    }
}
