import Composition
import Export
import Foundation

/// Describes a media file for a document: `{ try await Asset.load(from: $0) }` in normal use; tests and tools may
/// pass their own.
public typealias DocumentAssetLoader = @Sendable (URL) async throws -> Asset

/// Finds and describes the files a document names.
package enum DocumentSources {
    /// The file a document names: a `file://` URL as is, an absolute path as is, a relative path against `folder`.
    package static func url(for source: String, folder: URL) -> URL {
        if source.contains("://"), let url = URL(string: source) { return url }
        if source.hasPrefix("/") { return URL(fileURLWithPath: source).standardizedFileURL }
        if source.hasPrefix("~/") {
            return URL(fileURLWithPath: NSString(string: source).expandingTildeInPath).standardizedFileURL
        }
        return URL(fileURLWithPath: source, relativeTo: folder).standardizedFileURL
    }

    /// `url` written relative to `folder` when that is shorter and clear (`clips/a.mp4`, `../media/b.mov`), else
    /// its absolute path.
    package static func relativePath(of url: URL, from folder: URL) -> String {
        guard url.isFileURL else { return url.absoluteString }
        let target = url.standardizedFileURL.pathComponents
        let base = folder.standardizedFileURL.pathComponents
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        guard common > 1 else { return url.standardizedFileURL.path }
        let ups = base.count - common
        guard ups <= 3 else { return url.standardizedFileURL.path }
        return (Array(repeating: "..", count: ups) + target[common...]).joined(separator: "/")
    }

    /// Loads every distinct source once (a few at a time), reporting each failure at every place the source is named.
    ///
    /// - Parameters:
    ///   - references: sources as written, with the document path naming each.
    ///   - folder: the document's folder (relative paths resolve against it).
    ///   - loader: describes one file.
    /// - Returns: the assets by source text, and a problem per failed reference (e.g. `clips[1].source: no such file
    ///   'b.mov' (/work/b.mov)`).
    /// - Throws: `CancellationError` when the task is cancelled.
    package static func load(
        _ references: [(source: String, path: DocumentPath)], folder: URL, loader: @escaping DocumentAssetLoader
    ) async throws -> (assets: [String: Asset], problems: [DocumentProblem]) {
        var distinct: [String] = []
        for reference in references where !distinct.contains(reference.source) { distinct.append(reference.source) }
        var results: [String: Result<Asset, SourceFailure>] = [:]
        try await withThrowingTaskGroup(of: (String, Result<Asset, SourceFailure>).self) { group in
            var pending = distinct[...]
            func startNext() {
                guard let source = pending.popFirst() else { return }
                let url = Self.url(for: source, folder: folder)
                group.addTask { (source, try await Self.describe(source: source, url: url, loader: loader)) }
            }
            for _ in 0..<2 { startNext() }
            while let (source, result) = try await group.next() {
                results[source] = result
                startNext()
            }
        }
        var assets: [String: Asset] = [:]
        var problems: [DocumentProblem] = []
        for reference in references {
            switch results[reference.source] {
            case .success(let asset): assets[reference.source] = asset
            case .failure(let failure): problems.append(DocumentProblem(path: reference.path, message: failure.message))
            case nil: break
            }
        }
        return (assets, problems)
    }

    /// Why a source could not be described, as a message naming the source as written.
    struct SourceFailure: Error {
        var message: String
    }

    private static func describe(source: String, url: URL, loader: DocumentAssetLoader) async throws -> Result<Asset, SourceFailure> {
        let shown = "'\(source)'" + (source.hasPrefix("/") || !url.isFileURL ? "" : " (\(url.path))")
        if url.isFileURL {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                return .failure(SourceFailure(message: "no such file \(shown)"))
            }
            if isDirectory.boolValue {
                return .failure(SourceFailure(message: "\(shown) is a directory, not a media file"))
            }
        }
        do {
            return .success(try await loader(url))
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as AssetLoadingError {
            let message: String
            switch error {
            case .fileNotFound: message = "no such file \(shown)"
            case .permissionDenied: message = "cannot read \(shown): permission denied"
            case .isADirectory: message = "\(shown) is a directory, not a media file"
            case .notARegularFile(_, let kind): message = "\(shown) is a \(kind), not a regular file"
            case .emptyFile: message = "\(shown) is empty (0 bytes)"
            case .notAMediaFile(_, let reason): message = "\(shown) is not a media file (\(reason))"
            case .corruptOrTruncated(_, let reason): message = "\(shown) is corrupt or truncated (\(reason))"
            case .noDecodableStream: message = "\(shown) has no video or audio track"
            case .unsupportedCodec(_, let trackID, let codec):
                message = "\(shown): track \(trackID) uses codec '\(codec)', which this FFmpeg cannot decode"
            case .notAFileURL: message = "\(shown) is not a local file (only files can be read)"
            case .readFailed(_, let reason): message = "cannot read \(shown): \(reason)"
            case .malformedSubtitles(_, let line, let column, let reason):
                message = "\(shown), line \(line), column \(column): \(reason)"
            case .undecodableText(_, let line, let column, let reason):
                message = "\(shown), line \(line), column \(column): undecodable text: \(reason)"
            }
            return .failure(SourceFailure(message: message))
        } catch let error as NestedCompositionError {
            return .failure(SourceFailure(message: "\(shown) cannot be nested: \(error)"))
        } catch {
            return .failure(SourceFailure(message: "cannot load \(shown): \(error)"))
        }
    }
}
