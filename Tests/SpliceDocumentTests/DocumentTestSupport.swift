import Composition
import Foundation
import SpliceTestSupport
import SpliceDocument

extension TestDocument {
    /// Loads `text` as `doc.json` in a fresh folder with the links (``folder()``).
    static func load(_ text: String) async throws -> LoadedDocument {
        let scratch = try folder()
        defer { scratch.remove() }
        return try await CompositionDocument.load(from: try scratch.write("doc.json", text))
    }
}

extension TimeRange {
    /// `[start, end)` in whole or fractional seconds given as milliseconds.
    static func ms(_ start: Int64, _ end: Int64) -> TimeRange { TimeRange(start: .ms(start), end: .ms(end)) }
}
