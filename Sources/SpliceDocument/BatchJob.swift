import Delivery
import Foundation

/// One line of a batch file (JSON Lines, `splice batch JOBS.jsonl`): a document to export and where, with the
/// export's options as fields.
///
/// ```json
/// {"document": "edits/a.json", "output": "out/a.mp4"}
/// {"document": "edits/b.json", "output": "out/b.mp4", "overwrite": true, "loudness": {"integratedLoudness": -16}}
/// ```
///
/// Relative paths are read from the batch file's folder.
public struct BatchJob: Sendable, Hashable {
    /// The composition document (a file path).
    public var document: URL
    /// The file to write.
    public var output: URL
    /// Render even when ``output`` already exists (and replace it); false by default: an existing, readable output
    /// counts as done and the job is skipped.
    public var overwrite: Bool
    /// Copy untouched groups of pictures (smart rendering); nil: the document's choice.
    public var smartRendering: Bool?
    /// Normalise the audio mix's loudness; nil: the document's `export.loudness`.
    public var loudness: LoudnessNormalization?

    /// A job with every field given.
    public init(document: URL, output: URL, overwrite: Bool = false, smartRendering: Bool? = nil,
                loudness: LoudnessNormalization? = nil) {
        self.document = document
        self.output = output
        self.overwrite = overwrite
        self.smartRendering = smartRendering
        self.loudness = loudness
    }

    /// The fields as written on the line (paths as text).
    private struct Written: Decodable {
        var document: String
        var output: String
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

    /// The jobs that write the same file as another job, by line number: each maps to the other lines writing that
    /// file. Outputs are compared after resolving `.`, `..` and symbolic links in their folders (`out/a.mp4`,
    /// `./out/../out/a.mp4` and a link to `out` are one file), so two jobs can never race for one output nor the
    /// second be skipped as "already done" on a rerun. Lines that are not jobs are left out.
    /// - Parameter lines: the lines of one batch file (``parse(_:batchFile:)``).
    /// - Returns: line number → the other line numbers with the same output, ascending; empty when every output is
    ///   distinct.
    public static func sharedOutputs(in lines: [Line]) -> [Int: [Int]] {
        var byOutput: [String: [Int]] = [:]
        for line in lines {
            guard case .success(let job) = line.job else { continue }
            let output = job.output.standardizedFileURL
            let folder = output.deletingLastPathComponent().resolvingSymlinksInPath()
            byOutput[folder.appendingPathComponent(output.lastPathComponent).path, default: []].append(line.number)
        }
        var shared: [Int: [Int]] = [:]
        for numbers in byOutput.values where numbers.count > 1 {
            for number in numbers { shared[number] = numbers.filter { $0 != number } }
        }
        return shared
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
        for (key, text) in [("document", written.document), ("output", written.output)] where text.isEmpty {
            return fail("'\(key)' is an empty path", path: DocumentPath([.key(key)]), at: tree[key]?.position)
        }
        func url(_ text: String) -> URL { text.hasPrefix("/") ? URL(fileURLWithPath: text) : folder.appendingPathComponent(text) }
        return .success(BatchJob(document: url(written.document), output: url(written.output), overwrite: written.overwrite ?? false,
                                 smartRendering: written.smartRendering, loudness: written.loudness))
    }
}
