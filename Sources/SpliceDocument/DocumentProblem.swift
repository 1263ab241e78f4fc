import Foundation

/// One problem found in a composition document: where it is (a JSON path, and the line and column when the value
/// was written in the file) and what is wrong, e.g. `clips[1].source: no such file 'b.mov'`.
public struct DocumentProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where in the document; the empty path for the document as a whole.
    public var path: DocumentPath
    /// The 1-based line of the value in the file, when it was written there (nil for values the short form or a
    /// default supplied).
    public var line: Int?
    /// The 1-based column (in characters) of the value, with ``line``.
    public var column: Int?
    /// What is wrong, as a sentence fragment that follows the path (`no such file 'b.mov'`).
    public var message: String
    /// True when the path is in the *expanded* form of a short-form document (the models the short form became),
    /// not in the text the user wrote.
    public var isInExpandedForm: Bool

    /// A problem at `path`.
    public init(path: DocumentPath, message: String, line: Int? = nil, column: Int? = nil, isInExpandedForm: Bool = false) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        self.isInExpandedForm = isInExpandedForm
    }

    /// `path: message`, with a note when the path is in the expanded form: `clips[1].source: no such file 'b.mov'`;
    /// just the message for the document as a whole.
    public var description: String {
        if path.isEmpty { return message }
        return "\(path)\(isInExpandedForm ? " (in the expanded form)" : ""): \(message)"
    }
}

/// Why a composition document could not be loaded, validated or expanded: every problem found, each pointing into
/// the document.
public struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document file.
    public var url: URL
    /// The problems, in document order where that is known (never empty).
    public var problems: [DocumentProblem]

    /// An error listing `problems` in the document at `url`.
    public init(url: URL, problems: [DocumentProblem]) {
        self.url = url
        self.problems = problems
    }

    /// One line per problem, compiler style: `edit.json:7:17: clips[1].source: no such file 'b.mov'` (the line and
    /// column when known).
    public var description: String {
        problems.map { problem in
            let place = problem.line.flatMap { line in problem.column.map { ":\(line):\($0)" } } ?? ""
            return "\(url.lastPathComponent)\(place): \(problem)"
        }.joined(separator: "\n")
    }
}

extension DocumentError: LocalizedError {
    /// Same as ``description``.
    public var errorDescription: String? { description }
}
