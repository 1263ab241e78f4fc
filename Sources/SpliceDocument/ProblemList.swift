import Composition

/// Problems collected while reading, expanding or compiling a document, so that one pass reports every problem it
/// can find rather than stopping at the first.
struct ProblemList {
    /// The problems in the order found.
    private(set) var problems: [DocumentProblem] = []
    /// Paths of the short form's expansion are marked so (their positions are not in the file).
    var marksExpandedForm = false

    /// True when nothing was found.
    var isEmpty: Bool { problems.isEmpty }

    /// Adds a problem at `path`.
    mutating func add(_ path: DocumentPath, _ message: String) {
        problems.append(DocumentProblem(path: path, message: message, isInExpandedForm: marksExpandedForm))
    }

    /// Adds every problem of `other`.
    mutating func add(contentsOf other: [DocumentProblem]) {
        problems += other
    }

    /// The problems with line and column filled in from `tree` (the parsed document) where the path exists in it.
    func located(in tree: JSONNode?) -> [DocumentProblem] {
        problems.map { problem in
            guard let tree, !problem.isInExpandedForm, problem.line == nil,
                  let position = tree.closestPosition(to: problem.path.components)
            else { return problem }
            var located = problem
            located.line = position.line
            located.column = position.column
            return located
        }
    }
}
