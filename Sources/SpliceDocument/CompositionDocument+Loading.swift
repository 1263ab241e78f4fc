import AudioMix
import Composition
import Export
import Foundation
import VideoComposition

extension CompositionDocument {
    /// Reads a composition document — full form (``CompositionDocument``) or short form (``ShortFormDocument``) —
    /// describes every file it names, expands the short form and builds the models, reporting every problem found
    /// at its place in the document.
    ///
    /// Steps: the JSON is parsed (a syntax error gives its line and column); `"version"` must be
    /// ``currentVersion``; a document with `"clips"` is the short form, one with `"composition"` the full form; the
    /// values are decoded into the models (whose times read every ``Composition/TimeSyntax`` form: `"3.5s"`,
    /// `"00:01:02.5"`, `"90f"`, `"1001/30000"`, numbers of seconds), and a key no model reads is an error
    /// (`"fadeout"`: did you mean `fadeOut`?); keys starting with `_` or `//` are comments. Relative paths resolve against the document's
    /// folder. Every distinct source file is described once with `assetLoader`; then the short form is expanded
    /// (``ShortFormDocument/expanded(assets:folder:documentURL:)``) and the full form compiled and validated
    /// (``compiled(assets:url:form:)``).
    ///
    /// - Parameters:
    ///   - url: the document file.
    ///   - assetLoader: describes a media file (`{ try await Asset.load(from: $0) }`).
    /// - Returns: the models, ready for ``LoadedDocument/makeExportSession(outputURL:overwrite:)``.
    /// - Throws: ``DocumentError`` listing every problem (`clips[1].source: no such file 'b.mov'`), or
    ///   `CancellationError` when the task is cancelled.
    public static func load(from url: URL, assetLoader: @escaping DocumentAssetLoader) async throws -> LoadedDocument {
        let read = try DocumentReader.read(url)
        let folder = url.deletingLastPathComponent()
        let references: [(source: String, path: DocumentPath)]
        switch read.content {
        case .full(let document): references = document.sourceReferences
        case .short(let document): references = document.sourceReferences
        }
        let (assets, loadProblems) = try await DocumentSources.load(references, folder: folder, loader: assetLoader)
        var problems = ProblemList()
        problems.add(contentsOf: loadProblems)

        var loaded: LoadedDocument?
        switch read.content {
        case .full(let document):
            do {
                loaded = try document.compiled(assets: assets, url: url)
            } catch {
                problems.add(contentsOf: error.problems)
            }
        case .short(let document):
            do {
                let expanded = try document.expanded(assets: assets, folder: folder, documentURL: url)
                if loadProblems.isEmpty {
                    loaded = try expanded.compiled(assets: assets, url: url, form: .short)
                }
            } catch {
                problems.add(contentsOf: error.problems)
            }
        }
        if let loaded, problems.isEmpty { return loaded }
        var seen = Set<DocumentPath>()
        let distinct = problems.located(in: read.tree).filter { problem in
            problem.isInExpandedForm || seen.insert(problem.path).inserted
        }
        throw DocumentError(url: url, problems: distinct)
    }

    /// Reads the document at `url`, describing its sources with ``Composition/Asset/load(from:)`` — and other
    /// documents named as sources (`.json`) as nested compositions, pre-composed into the temporary directory
    /// (``nestingAssetLoader(intermediatesIn:enclosing:)``); see ``load(from:assetLoader:)``.
    ///
    /// - Throws: ``DocumentError`` listing every problem (a cycle of documents among them), or `CancellationError`.
    public static func load(from url: URL) async throws -> LoadedDocument {
        try await load(from: url, assetLoader: nestingAssetLoader(
            intermediatesIn: FileManager.default.temporaryDirectory, enclosing: [url]))
    }
}

/// Reads a document file into the full- or short-form type, reporting problems at their JSON paths with line and
/// column.
package enum DocumentReader {
    /// A decoded document and the JSON tree it came from.
    struct Result {
        enum Content {
            case full(CompositionDocument)
            case short(ShortFormDocument)
        }

        var content: Content
        var tree: JSONNode
    }

    /// Parses and decodes the document at `url`.
    ///
    /// - Throws: ``DocumentError`` for an unreadable file, a JSON syntax error, a wrong or missing version, an
    ///   unrecognised form, a value that does not decode, or unknown keys.
    static func read(_ url: URL) throws(DocumentError) -> Result {
        func fail(_ message: String, path: DocumentPath = DocumentPath(), at position: JSONPosition? = nil) -> DocumentError {
            DocumentError(url: url, problems: [DocumentProblem(path: path, message: message, line: position?.line, column: position?.column)])
        }
        var tree = try parsedFile(url, noun: "document")
        guard tree.members != nil else {
            throw fail("a document is a JSON object ({ \"version\": 1, … }), not \(tree.kindDescription)", at: tree.position)
        }
        guard let versionNode = tree["version"] else {
            throw fail("the document has no \"version\": add \"version\": \(CompositionDocument.currentVersion) at the top", at: tree.position)
        }
        guard case .number(let versionText) = versionNode.value, let version = Int(versionText) else {
            let found: String
            if case .number(let literal) = versionNode.value { found = literal } else { found = versionNode.kindDescription }
            throw fail("expected the whole number \(CompositionDocument.currentVersion), found \(found)", path: "version", at: versionNode.position)
        }
        guard version == CompositionDocument.currentVersion else {
            throw fail("this splice reads version \(CompositionDocument.currentVersion) documents, not version \(version)",
                       path: "version", at: versionNode.position)
        }
        let isShort = tree["clips"] != nil
        let isFull = tree["composition"] != nil
        if isShort && isFull {
            throw fail("a document has either \"clips\" (the short form) or \"composition\" (the full form), not both", at: tree.position)
        }
        guard isShort || isFull else {
            // A misspelt "clips" or "composition" is the likely cause: name the key that was written.
            if case .object(let members) = tree.value {
                for member in members {
                    if let meant = JSONNodeDecoder.suggestion(for: member.key, among: ["clips", "composition"]) {
                        throw fail("unknown field '\(member.key)' (did you mean '\(meant)'?): the document needs \"clips\" "
                                   + "(the short form) or \"composition\" (the full form)",
                                   path: DocumentPath([.key(member.key)]), at: member.value.position ?? tree.position)
                    }
                }
            }
            throw fail("the document has neither \"clips\" (the short form) nor \"composition\" (the full form)", at: tree.position)
        }
        normalizeExport(&tree)

        let frameDuration: MediaTime?
        if isShort {
            let rate = tree["frameRate"].flatMap { try? JSONNodeDecoder().decode(FrameRate.self, from: $0) }
            frameDuration = (rate ?? ShortFormDocument.defaultFrameRate).frameDuration
        } else {
            frameDuration = tree["videoComposition"]?["frameDuration"].flatMap { try? JSONNodeDecoder().decode(MediaTime.self, from: $0) }
        }
        let decoder = JSONNodeDecoder(frameDuration: frameDuration)
        let content: Result.Content
        do {
            if isShort {
                content = .short(try decoder.decode(ShortFormDocument.self, from: tree))
            } else {
                var document = try decoder.decode(CompositionDocument.self, from: tree)
                resolveOverlayPaths(in: &document, tree: tree, folder: url.deletingLastPathComponent())
                resolveEffectPaths(in: &document, tree: tree, folder: url.deletingLastPathComponent())
                content = .full(document)
            }
        } catch let error as DecodingError {
            var (path, message) = describe(error)
            if path == "export.preset", let written = tree.node(at: path.components)?.string {
                let names = ExportPreset.allCases.map { $0.rawValue.replacingOccurrences(of: "AVAssetExportPreset", with: "") }
                message = "'\(written)' is not a preset: \(names.joined(separator: ", ")) (the AVAssetExportPreset prefix may be written or left out)"
            }
            throw fail(message, path: path, at: tree.closestPosition(to: path.components))
        } catch {
            throw fail("\(error)")
        }
        let unknown = decoder.unknownKeys(in: tree)
        if !unknown.isEmpty {
            throw DocumentError(url: url, problems: unknown.map { key in
                let name: String
                if case .key(let last)? = key.path.components.last { name = last } else { name = key.path.description }
                let hint = key.suggestion.map { " (did you mean '\($0)'?)" } ?? ""
                return DocumentProblem(
                    path: key.path, message: "unknown field '\(name)'\(hint)", line: key.position?.line, column: key.position?.column)
            })
        }
        return Result(content: content, tree: tree)
    }

    /// The JSON tree of the file at `url` (a composition document, or another JSON format read with this parser).
    ///
    /// - Parameter noun: what the file is, for messages (`cannot read the document: …`).
    /// - Throws: ``DocumentError`` for a missing file, a directory, an unreadable file, or a JSON syntax error (with
    ///   its line and column).
    package static func parsedFile(_ url: URL, noun: String) throws(DocumentError) -> JSONNode {
        func fail(_ message: String, at position: JSONPosition? = nil) -> DocumentError {
            DocumentError(url: url, problems: [DocumentProblem(path: DocumentPath(), message: message, line: position?.line, column: position?.column)])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw fail("cannot read the \(noun): no such file (\(url.path))")
        }
        guard !isDirectory.boolValue else { throw fail("cannot read the \(noun): \(url.path) is a directory") }
        let data: Data
        do {
            data = try FileContents.data(of: url)
        } catch {
            throw fail("cannot read the \(noun): \(error.localizedDescription)")
        }
        do {
            return try JSONParser.parse(Array(data))
        } catch {
            throw fail("JSON syntax error: \(error.message)", at: error.position)
        }
    }

    /// The path and a message for a decoding error.
    static func describe(_ error: DecodingError) -> (DocumentPath, String) {
        switch error {
        case .keyNotFound(let key, let context):
            return (DocumentPath(codingPath: context.codingPath + [key]), "missing required field '\(key.stringValue)'")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return (DocumentPath(codingPath: context.codingPath), context.debugDescription)
        @unknown default:
            return (DocumentPath(), "\(error)")
        }
    }

    /// Rewrites the `export` object's conveniences into the models' `Codable` form: `settings` completed with
    /// ``ExportSettings`` defaults; `metadata` written as an object of strings. (A preset without its
    /// `AVAssetExportPreset` prefix and `rateControl` are read by the models' own `Codable`.)
    static func normalizeExport(_ tree: inout JSONNode) {
        guard var export = tree["export"], export.members != nil else { return }
        if var settings = export["settings"], settings.members != nil, let defaults = try? JSONNodeEncoder.encode(ExportSettings()) {
            for part in ["video", "audio"] {
                guard let given = settings[part] else {
                    settings[part] = defaults[part]
                    continue
                }
                guard given.members != nil, let defaultPart = defaults[part] else { continue }
                var merged = defaultPart
                for member in given.members ?? [] { merged[member.key] = member.value }
                merged.position = given.position
                settings[part] = merged
            }
            export["settings"] = settings
        }
        if var metadata = export["metadata"], let members = metadata.members {
            metadata.value = .array(members.map { member in
                JSONNode(.object([
                    JSONNode.Member(key: "key", value: JSONNode(.string(member.key), at: member.value.position)),
                    JSONNode.Member(key: "value", value: member.value),
                ]), at: member.value.position)
            })
            export["metadata"] = metadata
        }
        tree["export"] = export
    }

    /// Resolves overlay image and font paths written relative to the document's folder (the models' decoders
    /// resolve them against the working directory).
    static func resolveOverlayPaths(in document: inout CompositionDocument, tree: JSONNode, folder: URL) {
        guard var videoComposition = document.videoComposition else { return }
        for index in videoComposition.overlays.indices {
            let content = tree.node(at: DocumentPath("videoComposition.overlays").appending(index).appending("content").components)
            switch videoComposition.overlays[index].content {
            case .image:
                if let written = content?["image"]?.string {
                    videoComposition.overlays[index].content = .image(DocumentSources.url(for: written, folder: folder))
                }
            case .text(var text):
                if let written = content?["text"]?["fontFile"]?.string {
                    text.fontFile = DocumentSources.url(for: written, folder: folder)
                    videoComposition.overlays[index].content = .text(text)
                }
            }
        }
        document.videoComposition = videoComposition
    }

    /// Resolves layer effects' `.cube` paths written relative to the document's folder (the models' decoder resolves
    /// them against the working directory): `videoComposition.instructions[i].layerInstructions[j].effects[k].file`.
    static func resolveEffectPaths(in document: inout CompositionDocument, tree: JSONNode, folder: URL) {
        guard var videoComposition = document.videoComposition else { return }
        for i in videoComposition.instructions.indices {
            for j in videoComposition.instructions[i].layerInstructions.indices {
                for k in videoComposition.instructions[i].layerInstructions[j].effects.indices {
                    guard case .lookupTable = videoComposition.instructions[i].layerInstructions[j].effects[k] else { continue }
                    let path = DocumentPath("videoComposition.instructions").appending(i).appending("layerInstructions")
                        .appending(j).appending("effects").appending(k).appending("file")
                    if let written = tree.node(at: path.components)?.string {
                        videoComposition.instructions[i].layerInstructions[j].effects[k] =
                            .lookupTable(DocumentSources.url(for: written, folder: folder))
                    }
                }
            }
        }
        document.videoComposition = videoComposition
    }
}
