import Foundation

extension JSONNodeDecoder {
    /// An object's members, read by key; each key asked for is noted for the unknown-key check.
    struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [JSONNode.Member]
        let node: JSONNode
        let codingPath: [any CodingKey]
        let owner: JSONNodeDecoder

        var allKeys: [Key] {
            for member in members { owner.noteAsked(member.key, at: codingPath) }
            return members.compactMap { Key(stringValue: $0.key) }
        }

        func contains(_ key: Key) -> Bool {
            owner.noteAsked(key.stringValue, at: codingPath)
            return members.contains { $0.key == key.stringValue }
        }

        private func child(_ key: Key) throws -> JSONNode {
            owner.noteAsked(key.stringValue, at: codingPath)
            guard let member = members.first(where: { $0.key == key.stringValue }) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing required field '\(key.stringValue)'"))
            }
            return member.value
        }

        private func decoder(_ key: Key) throws -> NodeDecoder {
            NodeDecoder(node: try child(key), codingPath: codingPath + [key], owner: owner)
        }

        private func nonNull(_ key: Key, _ type: Any.Type) throws -> JSONNode {
            let value = try child(key)
            if case .null = value.value {
                throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "is null; a value is required"))
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = try child(key).value { return true }
            return false
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try nonNull(key, type).decodeBool(at: codingPath + [key]) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try nonNull(key, type).decodeString(at: codingPath + [key]) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try nonNull(key, type).decodeDouble(at: codingPath + [key]) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try nonNull(key, type).decodeDouble(at: codingPath + [key])) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

        private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
            try nonNull(key, type).decodeInteger(type, at: codingPath + [key])
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            _ = try nonNull(key, type)
            return try decoder(key).decodeValue(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Swift.Decoder {
            NodeDecoder(node: node, codingPath: codingPath, owner: owner)
        }

        func superDecoder(forKey key: Key) throws -> any Swift.Decoder {
            try decoder(key)
        }
    }

    /// An array's elements, read in order.
    struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
        let elements: [JSONNode]
        let codingPath: [any CodingKey]
        let owner: JSONNodeDecoder
        private(set) var currentIndex = 0

        init(elements: [JSONNode], codingPath: [any CodingKey], owner: JSONNodeDecoder) {
            self.elements = elements
            self.codingPath = codingPath
            self.owner = owner
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private var elementPath: [any CodingKey] { codingPath + [PathKey(intValue: currentIndex)] }

        private mutating func next(_ type: Any.Type) throws -> (JSONNode, [any CodingKey]) {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, .init(
                    codingPath: elementPath, debugDescription: "the array has only \(elements.count) elements"))
            }
            let element = elements[currentIndex]
            let path = elementPath
            if case .null = element.value {
                throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "is null; a value is required"))
            }
            currentIndex += 1
            return (element, path)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { return false }
            if case .null = elements[currentIndex].value {
                currentIndex += 1
                return true
            }
            return false
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { let (n, p) = try next(type); return try n.decodeBool(at: p) }
        mutating func decode(_ type: String.Type) throws -> String { let (n, p) = try next(type); return try n.decodeString(at: p) }
        mutating func decode(_ type: Double.Type) throws -> Double { let (n, p) = try next(type); return try n.decodeDouble(at: p) }
        mutating func decode(_ type: Float.Type) throws -> Float { let (n, p) = try next(type); return Float(try n.decodeDouble(at: p)) }
        mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

        private mutating func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
            let (node, path) = try next(type)
            return try node.decodeInteger(type, at: path)
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (node, path) = try next(type)
            return try NodeDecoder(node: node, codingPath: path, owner: owner).decodeValue(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let (node, path) = try next([String: Int].self)
            return try NodeDecoder(node: node, codingPath: path, owner: owner).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (node, path) = try next([Int].self)
            return try NodeDecoder(node: node, codingPath: path, owner: owner).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Swift.Decoder {
            let (node, path) = try next(Any.self)
            return NodeDecoder(node: node, codingPath: path, owner: owner)
        }
    }

    /// One value (a number, a string, a flag, or a value its type decodes itself).
    struct SingleNodeContainer: SingleValueDecodingContainer {
        let node: JSONNode
        let codingPath: [any CodingKey]
        let owner: JSONNodeDecoder

        func decodeNil() -> Bool {
            if case .null = node.value { return true }
            return false
        }

        private func nonNull(_ type: Any.Type) throws -> JSONNode {
            if case .null = node.value {
                throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "is null; a value is required"))
            }
            return node
        }

        func decode(_ type: Bool.Type) throws -> Bool { try nonNull(type).decodeBool(at: codingPath) }
        func decode(_ type: String.Type) throws -> String { try nonNull(type).decodeString(at: codingPath) }
        func decode(_ type: Double.Type) throws -> Double { try nonNull(type).decodeDouble(at: codingPath) }
        func decode(_ type: Float.Type) throws -> Float { Float(try nonNull(type).decodeDouble(at: codingPath)) }
        func decode(_ type: Int.Type) throws -> Int { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: Int8.Type) throws -> Int8 { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: Int16.Type) throws -> Int16 { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: Int32.Type) throws -> Int32 { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: Int64.Type) throws -> Int64 { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: UInt.Type) throws -> UInt { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try nonNull(type).decodeInteger(type, at: codingPath) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try nonNull(type).decodeInteger(type, at: codingPath) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try NodeDecoder(node: try nonNull(type), codingPath: codingPath, owner: owner).decodeValue(type)
        }
    }
}
