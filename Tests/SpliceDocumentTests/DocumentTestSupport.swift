import Composition
import Foundation
import SpliceTestSupport
import SpliceDocument
import Testing

extension TestDocument {
    /// Loads `text` as `doc.json` in a fresh folder with the links (``folder()``).
    static func load(_ text: String) async throws -> LoadedDocument {
        let scratch = try folder()
        defer { scratch.remove() }
        return try await CompositionDocument.load(from: try scratch.write("doc.json", text))
    }

    /// The problems of `text` as a document beside the canonical fixtures (``load(_:)``); none, with an issue
    /// recorded, when it loads.
    /// - Throws: a failure other than a ``DocumentError``.
    static func problems(_ text: String) async throws -> [DocumentProblem] {
        do {
            _ = try await load(text)
            Issue.record("the document loaded without problems")
            return []
        } catch let error as DocumentError {
            return error.problems
        }
    }
}

extension TimeRange {
    /// `[start, end)` in whole or fractional seconds given as milliseconds.
    static func ms(_ start: Int64, _ end: Int64) -> TimeRange { TimeRange(start: .ms(start), end: .ms(end)) }
}
