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
/// (One file of ~430 lines on purpose: `Swift.Decoder`'s keyed, unkeyed and single-value containers are private to
/// this decoder and share its key bookkeeping and error wording; split apart they would have to be internal.)
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

    fileprivate func noteAsked(_ key: String, at path: [any CodingKey]) {
        askedKeys[DocumentPath(codingPath: path), default: []].insert(key)
    }

    fileprivate func noteOpened(at path: [any CodingKey]) {
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

private struct NodeDecoder: Swift.Decoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let owner: JSONNodeDecoder
    var userInfo: [CodingUserInfoKey: Any] {
        var info: [CodingUserInfoKey: Any] = [.numbersAreSeconds: true]
        if let frameDuration = owner.frameDuration { info[.frameDuration] = frameDuration }
        return info
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let members = node.members else { throw mismatch([String: Int].self, "an object") }
        owner.noteOpened(at: codingPath)
        return KeyedDecodingContainer(KeyedNodeContainer<Key>(members: members, node: node, codingPath: codingPath, owner: owner))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements = node.elements else { throw mismatch([Int].self, "an array") }
        return UnkeyedNodeContainer(elements: elements, codingPath: codingPath, owner: owner)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath, owner: owner)
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(node.kindDescription)"))
    }

    // MARK: Values

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Decimal.self, let number = try decodeDecimal() as? T { return number }
        if T.self == URL.self, let url = try decodeURL() as? T { return url }
        do {
            return try T(from: self)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.count == codingPath.count {
            if let cases = Self.caseNames(of: T.self), let text = node.string {
                let hint = JSONNodeDecoder.suggestion(for: text, among: cases).map { " (did you mean '\($0)'?)" } ?? ""
                throw DecodingError.dataCorrupted(.init(
                    codingPath: codingPath,
                    debugDescription: "'\(text)' is not one of: \(cases.joined(separator: ", "))\(hint)"))
            }
            throw DecodingError.dataCorrupted(context)
        }
    }

    /// The raw values of a string enumeration's cases, or nil for other types.
    static func caseNames<T>(of type: T.Type) -> [String]? {
        guard let iterable = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
        return names(iterable)
    }

    private static func names<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> [String]? {
        let names = E.allCases.compactMap { $0.rawValue as? String }
        return names.isEmpty ? nil : names
    }

    /// A number literal as an exact `Decimal`, as `JSONDecoder` reads it (``Composition/MediaTime`` reads numbers of
    /// seconds so).
    private func decodeDecimal() throws -> Decimal {
        guard case .number(let literal) = node.value else { throw mismatch(Decimal.self, "a number") }
        guard let number = Decimal(string: literal, locale: nil) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(literal) is out of range"))
        }
        return number
    }

    private func decodeURL() throws -> URL {
        guard let text = node.string else { throw mismatch(URL.self, "a path or URL string") }
        if text.contains("://"), let url = URL(string: text) { return url }
        return URL(fileURLWithPath: text)
    }
}

// MARK: - Primitive values

extension JSONNode {
    fileprivate func decodeBool(at path: [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, "true or false", at: path) }
        return flag
    }

    fileprivate func decodeString(at path: [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, "a string", at: path) }
        return text
    }

    fileprivate func decodeInteger<I: FixedWidthInteger>(_ type: I.Type, at path: [any CodingKey]) throws -> I {
        guard case .number(let literal) = value else { throw mismatch(I.self, "a whole number", at: path) }
        if let integer = I(literal) { return integer }
        if let fraction = TimeSyntax.fraction(decimal: literal), fraction.denominator == 1, let integer = I(exactly: fraction.numerator) {
            return integer
        }
        throw DecodingError.dataCorrupted(.init(
            codingPath: path, debugDescription: "expected a whole number from \(I.min) to \(I.max), found \(literal)"))
    }

    fileprivate func decodeDouble(at path: [any CodingKey]) throws -> Double {
        guard case .number(let literal) = value else { throw mismatch(Double.self, "a number", at: path) }
        guard let number = Double(literal), number.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(literal) is out of range"))
        }
        return number
    }

    private func mismatch(_ type: Any.Type, _ expected: String, at path: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(expected), found \(kindDescription)"))
    }
}

// MARK: - Containers

private struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
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

private struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
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

private struct SingleNodeContainer: SingleValueDecodingContainer {
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
