/// A place inside a composition document, written as a JSON path: `clips[1].source`,
/// `videoComposition.instructions[2].timeRange`. The empty path is the document itself.
public struct DocumentPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// An object member, by key.
        case key(String)
        /// An array element, by 0-based index.
        case index(Int)
    }

    /// The steps, outermost first.
    public var components: [Component]

    /// A path of `components`.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// Parses the dotted form (`"clips[1].source"`); see ``init(parsing:)``.
    public init(stringLiteral text: String) {
        self.init(parsing: text)
    }

    /// Parses the dotted form (`"clips[1].source"`); keys may not contain `.` or `[` in this form.
    public init(parsing text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: true) {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                if bracket > rest.startIndex { components.append(.key(String(rest[..<bracket]))) }
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    if let index = Int(rest[rest.index(after: rest.startIndex)..<close]) { components.append(.index(index)) }
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                components.append(.key(String(rest)))
            }
        }
        self.components = components
    }

    /// The path of a `Codable` coding path (integer keys become indices).
    public init(codingPath: [any CodingKey]) {
        components = codingPath.map { key in
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                return .index(index)
            }
            return .key(key.stringValue)
        }
    }

    /// This path followed by the member `key`.
    public func appending(_ key: String) -> DocumentPath {
        DocumentPath(components + [.key(key)])
    }

    /// This path followed by the element `index`.
    public func appending(_ index: Int) -> DocumentPath {
        DocumentPath(components + [.index(index)])
    }

    /// This path followed by `other`.
    public func appending(_ other: DocumentPath) -> DocumentPath {
        DocumentPath(components + other.components)
    }

    /// True for the path of the whole document.
    public var isEmpty: Bool { components.isEmpty }

    /// The dotted form: `clips[1].source`; `(document)` for the empty path.
    public var description: String {
        guard !components.isEmpty else { return "(document)" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
