/// A place in a JSON text: 1-based line and column (columns count Unicode scalars, so a tab or an `é` is one).
package struct JSONPosition: Sendable, Hashable, CustomStringConvertible {
    /// Line number, from 1.
    package var line: Int
    /// Column number, from 1.
    package var column: Int

    /// `line:column`.
    package var description: String { "\(line):\(column)" }
}

/// A parsed JSON value that remembers where it starts in the text, so that a problem found while decoding a
/// document can be reported at its line and column. Objects keep their members in text order (the order a person
/// wrote them in, and the order `splice expand` prints them in).
package struct JSONNode: Sendable, Hashable {
    /// The JSON value.
    package indirect enum Value: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` / `false`.
        case bool(Bool)
        /// A number, kept as its literal text (`"3.5"`, `"1e-3"`) so decimals can be read exactly.
        case number(String)
        /// A string (escapes resolved).
        case string(String)
        /// An array.
        case array([JSONNode])
        /// An object, members in order; keys are unique (the parser rejects duplicates).
        case object([Member])
    }

    /// One `"key": value` of an object.
    package struct Member: Sendable, Hashable {
        /// The key.
        package var key: String
        /// The value.
        package var value: JSONNode

        /// A member.
        package init(key: String, value: JSONNode) {
            self.key = key
            self.value = value
        }
    }

    /// The value.
    package var value: Value
    /// Where the value starts in the text; nil for nodes made in code (defaults merged into a document).
    package var position: JSONPosition?

    /// A node.
    package init(_ value: Value, at position: JSONPosition? = nil) {
        self.value = value
        self.position = position
    }

    /// The member `key` of an object, or nil (also for non-objects).
    package subscript(key: String) -> JSONNode? {
        get {
            guard case .object(let members) = value else { return nil }
            return members.first { $0.key == key }?.value
        }
        set {
            guard case .object(var members) = value else { return }
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
            value = .object(members)
        }
    }

    /// The object's members, or nil for non-objects.
    package var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The array's elements, or nil for non-arrays.
    package var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The string, or nil for non-strings.
    package var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// A word for the kind of value, for messages: `"a string"`, `"an object"`, `"null"`.
    package var kindDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The node at `path` below this one (object keys and array indices), or nil when the path leaves the tree.
    package func node(at path: [DocumentPath.Component]) -> JSONNode? {
        var node = self
        for component in path {
            switch component {
            case .key(let key):
                guard let child = node[key] else { return nil }
                node = child
            case .index(let index):
                guard let elements = node.elements, elements.indices.contains(index) else { return nil }
                node = elements[index]
            }
        }
        return node
    }

    /// The position of the deepest node along `path` that exists (the closest place to point at), or nil.
    package func closestPosition(to path: [DocumentPath.Component]) -> JSONPosition? {
        var node = self
        var position = self.position
        for component in path {
            let next: JSONNode?
            switch component {
            case .key(let key): next = node[key]
            case .index(let index): next = node.elements.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            }
            guard let next else { break }
            node = next
            position = next.position ?? position
        }
        return position
    }
}
