import Composition
import Foundation

/// Decodes `Decodable` values — the library's own models and the document types — straight from a ``JSONNode``, so
/// that every problem keeps the path and the line and column of the value at fault.
///
/// Times are read by ``Composition/MediaTime``'s own `Codable` (every ``Composition/TimeSyntax`` form, numbers of
/// seconds through `Decimal`), the same way everywhere; this decoder hands it ``frameDuration`` in `userInfo` for
/// `"90f"` and allows numbers of seconds there (`numbersAreSeconds`). Beyond `JSONDecoder` it:
/// - records which keys each object was asked for, so ``unknownKeys(in:)`` can name keys no type reads (typos such as
///   `"fadeout"` would otherwise be ignored without a word);
/// - names the allowed values when a string is not one of an enumeration's cases.
///
/// The `Swift.Decoder` it hands to each type (``NodeDecoder``) and that decoder's keyed, unkeyed and single-value
/// containers are nested in it (`JSONNodeDecoder+NodeDecoder.swift`, `JSONNodeDecoder+Containers.swift`).
final class JSONNodeDecoder {
    /// The length of one frame, for times written in frames (`"90f"`); nil when the document sets no frame rate.
    var frameDuration: MediaTime?
    /// Keys asked for, per object path.
    private var askedKeys: [DocumentPath: Set<String>] = [:]

    /// A decoder; `frameDuration` enables times in frames.
    init(frameDuration: MediaTime? = nil) {
        self.frameDuration = frameDuration
    }

    /// Decodes `type` from `node`, which sits at `path` in the document.
    ///
    /// - Throws: `DecodingError` whose coding path is the full document path of the value at fault.
    func decode<T: Decodable>(_ type: T.Type, from node: JSONNode, at path: DocumentPath = DocumentPath()) throws -> T {
        try NodeDecoder(node: node, codingPath: path.components.map(PathKey.init), owner: self).decodeValue(type)
    }

    /// The members of objects under `node` (at `path`) that no decoded type asked for: each with its path and the
    /// closest key that was asked for, when one is near (edit distance ≤ 2, or equal ignoring case).
    func unknownKeys(in node: JSONNode, at path: DocumentPath = DocumentPath()) -> [(path: DocumentPath, position: JSONPosition?, suggestion: String?)] {
        var found: [(DocumentPath, JSONPosition?, String?)] = []
        switch node.value {
        case .object(let members):
            let asked = askedKeys[path]
            for member in members {
                let memberPath = path.appending(member.key)
                if let asked, !asked.contains(member.key) {
                    if !Self.isComment(member.key) {
                        found.append((memberPath, member.value.position, Self.suggestion(for: member.key, among: asked)))
                    }
                    continue
                }
                found += unknownKeys(in: member.value, at: memberPath)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                found += unknownKeys(in: element, at: path.appending(index))
            }
        default:
            break
        }
        return found
    }

    /// Keys starting with `_` or `//` are comments: never reported as unknown.
    static func isComment(_ key: String) -> Bool {
        key.hasPrefix("_") || key.hasPrefix("//")
    }

    /// Records that the object at `path` was asked for `key` (so it is not reported as unknown).
    func noteAsked(_ key: String, at path: [any CodingKey]) {
        askedKeys[DocumentPath(codingPath: path), default: []].insert(key)
    }

    /// Records that the object at `path` was opened as a keyed container (it is checked for unknown keys).
    func noteOpened(at path: [any CodingKey]) {
        let documentPath = DocumentPath(codingPath: path)
        if askedKeys[documentPath] == nil { askedKeys[documentPath] = [] }
    }

    /// The asked-for key closest to `key`, if it is close enough to be a likely typo.
    static func suggestion(for key: String, among candidates: some Collection<String>) -> String? {
        let lower = key.lowercased()
        if let sameLetters = candidates.first(where: { $0.lowercased() == lower }) { return sameLetters }
        let scored = candidates.map { ($0, editDistance(lower, $0.lowercased())) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }

    /// Levenshtein distance between two strings (by characters).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}

/// A coding key for a document path component.
struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    init(_ component: DocumentPath.Component) {
        switch component {
        case .key(let key): self.init(stringValue: key)
        case .index(let index): self.init(intValue: index)
        }
    }
}
