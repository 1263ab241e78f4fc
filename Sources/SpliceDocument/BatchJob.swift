import Composition
import Delivery
import Foundation

/// One line of a batch file (JSON Lines, `splice batch JOBS.jsonl`): a document to export and where — a file, an
/// adaptive-bitrate package folder, or both — with the export's options as fields.
///
/// ```json
/// {"document": "edits/a.json", "output": "out/a.mp4"}
/// {"document": "edits/b.json", "output": "out/b.mp4", "overwrite": true, "loudness": {"integratedLoudness": -16}}
/// {"document": "edits/c.json", "hls": "out/c", "dash": "out/c", "ladder": "720p:3M,480p:1200k", "segmentDuration": "4s"}
/// ```
///
/// Relative paths are read from the batch file's folder.
public struct BatchJob: Sendable, Hashable {
    /// The composition document (a file path).
    public var document: URL
    /// The file to write; nil when the job writes only a package.
    public var output: URL?
    /// The package to write (``Delivery/AdaptiveBitratePackager``), with the names of `splice export --hls/--dash`;
    /// nil when the job writes only a file.
    public var package: Package?
    /// Render even when the output or package already exists (and replace it); false by default: an existing,
    /// readable output or complete package counts as done and is skipped.
    public var overwrite: Bool
    /// Copy untouched groups of pictures (smart rendering) in the file; nil: the document's choice.
    public var smartRendering: Bool?
    /// Normalise the file's audio mix's loudness; nil: the document's `export.loudness`.
    public var loudness: LoudnessNormalization?

    /// A job's package: its folder, manifests, and the ladder and segment duration when the line gives them (else
    /// the document's `export.package`, else the packager's defaults).
    public struct Package: Sendable, Hashable {
        /// The package folder.
        public var folder: URL
        /// The manifests asked for (`hls`: `master.m3u8`, `dash`: `manifest.mpd`); never empty.
        public var manifestFormats: Set<StreamingManifestFormat>
        /// The renditions; nil for the document's, else the default ladder.
        public var ladder: AdaptiveBitrateLadder?
        /// The segment duration; nil for the document's, else 6 s.
        public var segmentDuration: MediaTime?

        /// A package into `folder` with `manifestFormats`.
        public init(folder: URL, manifestFormats: Set<StreamingManifestFormat>, ladder: AdaptiveBitrateLadder? = nil,
                    segmentDuration: MediaTime? = nil) {
            self.folder = folder
            self.manifestFormats = manifestFormats
            self.ladder = ladder
            self.segmentDuration = segmentDuration
        }

        /// The manifests' file names in the folder, in the order they are checked.
        public var manifestNames: [String] {
            StreamingManifestFormat.allCases.filter(manifestFormats.contains).map { format in
                format == .hls ? AdaptiveBitratePackager.masterPlaylistName : AdaptiveBitratePackager.dashManifestName
            }
        }
    }

    /// A job with every field given.
    public init(document: URL, output: URL?, package: Package? = nil, overwrite: Bool = false, smartRendering: Bool? = nil,
                loudness: LoudnessNormalization? = nil) {
        self.document = document
        self.output = output
        self.package = package
        self.overwrite = overwrite
        self.smartRendering = smartRendering
        self.loudness = loudness
    }

    /// What the job writes: its file and its package folder.
    public var targets: [URL] { [output, package?.folder].compactMap { $0 } }

    /// The fields as written on the line (paths as text).
    private struct Written: Decodable {
        var document: String
        var output: String?
        var hls: String?
        var dash: String?
        var ladder: AdaptiveBitrateLadder?
        var segmentDuration: MediaTime?
        var overwrite: Bool?
        var smartRendering: Bool?
        var loudness: LoudnessNormalization?
    }

    /// One line of a batch file: its number (from 1) and the job, or the problem that stops it (at its JSON path,
    /// with the column).
    public struct Line: Sendable, Hashable {
        /// The line number in the batch file, from 1.
        public var number: Int
        /// The job, or why the line is not one.
        public var job: Result<BatchJob, BatchLineError>
    }

    /// A line that is not a job: the problem, at its path in the line's JSON.
    public struct BatchLineError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong (with the line's column when known).
        public var problem: DocumentProblem
        /// The problem in words.
        public var description: String { problem.description }
    }

    /// The jobs of a batch file's text: one per non-blank line (JSON Lines; `#` starts a comment line), each parsed
    /// on its own with Splice's JSON parser, so a bad line stops only its own job.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - batchFile: where the text came from; relative paths are read from its folder.
    public static func parse(_ text: String, batchFile: URL) -> [Line] {
        let folder = batchFile.deletingLastPathComponent()
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            lines.append(Line(number: index + 1, job: parse(line: String(raw), folder: folder)))
        }
        return lines
    }

    /// Why a job may not run beside another: both write one file or folder, or one writes inside the other's
    /// package folder.
    public struct OutputConflict: Sendable, Hashable {
        /// The other job's line.
        public var line: Int
        /// The file or folder both write, or the other job's package folder this job writes inside (or this job's
        /// package folder the other writes inside).
        public var path: URL
        /// How they collide.
        public var kind: Kind

        /// How two jobs' outputs collide.
        public enum Kind: Sendable, Hashable {
            /// Both write `path`.
            case same
            /// This job writes inside the other job's package folder `path`.
            case insideOtherPackage
            /// The other job writes inside this job's package folder `path`.
            case holdsOther
        }
    }

    /// The jobs whose outputs collide with another job's, by line number: two jobs writing one file or one package
    /// folder, or a job writing inside another job's package folder (a package replaces its whole folder, and its
    /// manifests would not list the stranger). Paths are compared after resolving `.`, `..` and symbolic links in
    /// their folders (`out/a.mp4`, `./out/../out/a.mp4` and a link to `out` are one file), so two jobs can never
    /// race for one output nor the second be skipped as "already done" on a rerun. Lines that are not jobs are
    /// left out.
    /// - Parameter lines: the lines of one batch file (``parse(_:batchFile:)``).
    /// - Returns: line number → its conflicts, by the other line ascending; empty when every output is apart.
    public static func outputConflicts(in lines: [Line]) -> [Int: [OutputConflict]] {
        func resolved(_ url: URL) -> String {
            let standard = url.standardizedFileURL
            return standard.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(standard.lastPathComponent).path
        }
        var targets: [(line: Int, path: String, url: URL, isPackage: Bool)] = []
        for line in lines {
            guard case .success(let job) = line.job else { continue }
            if let output = job.output { targets.append((line.number, resolved(output), output.standardizedFileURL, false)) }
            if let package = job.package { targets.append((line.number, resolved(package.folder), package.folder.standardizedFileURL, true)) }
        }
        var conflicts: [Int: [OutputConflict]] = [:]
        for a in targets {
            for b in targets where b.line != a.line {
                if a.path == b.path {
                    conflicts[a.line, default: []].append(OutputConflict(line: b.line, path: a.url, kind: .same))
                } else if b.isPackage, a.path.hasPrefix(b.path + "/") {
                    conflicts[a.line, default: []].append(OutputConflict(line: b.line, path: b.url, kind: .insideOtherPackage))
                } else if a.isPackage, b.path.hasPrefix(a.path + "/") {
                    conflicts[a.line, default: []].append(OutputConflict(line: b.line, path: a.url, kind: .holdsOther))
                }
            }
        }
        return conflicts.mapValues { list in
            var seen = Set<OutputConflict>()
            return list.filter { seen.insert($0).inserted }.sorted { $0.line < $1.line }
        }
    }

    private static func parse(line: String, folder: URL) -> Result<BatchJob, BatchLineError> {
        func fail(_ message: String, path: DocumentPath = DocumentPath(), at position: JSONPosition? = nil) -> Result<BatchJob, BatchLineError> {
            .failure(BatchLineError(problem: DocumentProblem(path: path, message: message, line: position?.line, column: position?.column)))
        }
        let tree: JSONNode
        do {
            tree = try JSONParser.parse(Array(line.utf8))
        } catch {
            return fail("JSON syntax error: \(error.message)", at: error.position)
        }
        guard tree.members != nil else {
            return fail("a job is a JSON object ({\"document\": …, \"output\": …}), not \(tree.kindDescription)", at: tree.position)
        }
        let decoder = JSONNodeDecoder()
        let written: Written
        do {
            written = try decoder.decode(Written.self, from: tree)
        } catch let error as DecodingError {
            let (path, message) = DocumentReader.describe(error)
            return fail(message, path: path, at: tree.closestPosition(to: path.components))
        } catch {
            return fail("\(error)")
        }
        if let unknown = decoder.unknownKeys(in: tree).first {
            let hint = unknown.suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            return fail("unknown field '\(unknown.path)'\(hint)", path: unknown.path, at: unknown.position)
        }
        for (key, text) in [("document", written.document), ("output", written.output), ("hls", written.hls), ("dash", written.dash)]
        where text?.isEmpty == true {
            return fail("'\(key)' is an empty path", path: DocumentPath([.key(key)]), at: tree[key]?.position)
        }
        func url(_ text: String) -> URL { text.hasPrefix("/") ? URL(fileURLWithPath: text) : folder.appendingPathComponent(text) }
        var package: Package?
        if let packageFolder = written.hls ?? written.dash {
            if let hls = written.hls, let dash = written.dash, url(hls).standardizedFileURL != url(dash).standardizedFileURL {
                return fail("\"hls\" and \"dash\" share one package folder (the same segments): give the same folder to both",
                            path: DocumentPath([.key("dash")]), at: tree["dash"]?.position)
            }
            if let ladder = written.ladder {
                do throws(PackagingError) {
                    try ladder.validate()
                } catch {
                    return fail("\(error)", path: DocumentPath([.key("ladder")]), at: tree["ladder"]?.position)
                }
            }
            if let duration = written.segmentDuration, !(duration.isNumeric && duration > .zero) {
                return fail("\(PackagingError.invalidSegmentDuration(duration))", path: DocumentPath([.key("segmentDuration")]),
                            at: tree["segmentDuration"]?.position)
            }
            let formats = Set([written.hls.map { _ in StreamingManifestFormat.hls }, written.dash.map { _ in .dash }].compactMap { $0 })
            package = Package(folder: url(packageFolder), manifestFormats: formats, ladder: written.ladder,
                              segmentDuration: written.segmentDuration)
        } else if let key = ["ladder", "segmentDuration"].first(where: { tree[$0] != nil }) {
            return fail("'\(key)' shapes a package: give \"hls\" or \"dash\" (its folder)", path: DocumentPath([.key(key)]),
                        at: tree[key]?.position)
        }
        if written.output == nil {
            guard package != nil else {
                return fail("a job writes a file (\"output\") or a package (\"hls\", \"dash\"), or both: give at least one", at: tree.position)
            }
            if let key = ["smartRendering", "loudness"].first(where: { tree[$0] != nil }) {
                return fail("'\(key)' shapes the output file, and this job writes only a package", path: DocumentPath([.key(key)]),
                            at: tree[key]?.position)
            }
        }
        return .success(BatchJob(document: url(written.document), output: written.output.map(url), package: package,
                                 overwrite: written.overwrite ?? false, smartRendering: written.smartRendering, loudness: written.loudness))
    }
}
