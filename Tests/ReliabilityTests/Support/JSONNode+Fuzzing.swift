import Foundation
@testable import SpliceDocument

/// The fuzzer's edits of a JSON document, on SpliceDocument's own tree and parser (numbers kept as their exact text,
/// so `9223372036854775807` and `1e309` survive a round trip that `JSONSerialization` would round).
extension JSONNode {
    /// A way down the tree: object member or array element indices.
    typealias IndexPath = [Int]

    /// `data` (UTF-8 JSON, such as `JSONEncoder`'s output) parsed by SpliceDocument's parser.
    /// - Throws: `JSONSyntaxError` at the first place the text is not JSON.
    init(parsing data: Data) throws {
        self = try JSONParser.parse(Array(data))
    }

    /// Every node's index path, the root's (`[]`) first, in document order.
    var indexPaths: [IndexPath] {
        var result: [IndexPath] = [[]]
        switch value {
        case .object(let members):
            for (i, member) in members.enumerated() { result += member.value.indexPaths.map { [i] + $0 } }
        case .array(let elements):
            for (i, element) in elements.enumerated() { result += element.indexPaths.map { [i] + $0 } }
        default: break
        }
        return result
    }

    /// The node at `path` (this node for `[]`).
    func node(atIndices path: IndexPath) -> JSONNode {
        guard let first = path.first else { return self }
        switch value {
        case .object(let members): return members[first].value.node(atIndices: Array(path.dropFirst()))
        case .array(let elements): return elements[first].node(atIndices: Array(path.dropFirst()))
        default: return self
        }
    }

    /// The tree with the node at `path` replaced by `transform(node)`.
    func replacing(atIndices path: IndexPath, _ transform: (JSONNode) -> JSONNode) -> JSONNode {
        guard let first = path.first else { return transform(self) }
        let rest = Array(path.dropFirst())
        switch value {
        case .object(var members):
            members[first].value = members[first].value.replacing(atIndices: rest, transform)
            return JSONNode(.object(members))
        case .array(var elements):
            elements[first] = elements[first].replacing(atIndices: rest, transform)
            return JSONNode(.array(elements))
        default: return self
        }
    }
}
