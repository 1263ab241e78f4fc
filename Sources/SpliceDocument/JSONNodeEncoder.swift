import Composition
import Foundation

/// Encodes `Encodable` values to a ``JSONNode`` that keeps object members in the order the types encode them
/// (Foundation's `JSONEncoder` on Linux orders them by hash, which makes `splice expand` unreadable).
///
/// Numbers are written in their shortest exact form (`1080`, `0.5`, `0.1`); a non-finite `Double` cannot be JSON and
/// is an `EncodingError`. `URL`s are written as their absolute string, as `JSONEncoder` does; ``Composition/MediaTime``s
/// in their `Codable` text reduced to lowest terms (`"4"` rather than `"61440/15360"`: the same exact time).
struct JSONNodeEncoder {
    /// The value as a JSON tree.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a value that encodes nothing.
    static func encode<T: Encodable>(_ value: T) throws -> JSONNode {
        let box = EncodingBox()
        try NodeEncoder(box: box, codingPath: []).encodeValue(value)
        guard let node = box.node else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(T.self) encoded nothing"))
        }
        return node
    }
}

/// A slot being filled while encoding: a scalar, an array or an object (reference type, because containers are
/// handed out before they are filled).
private final class EncodingBox {
    enum Content {
        case empty
        case scalar(JSONNode.Value)
        case array([EncodingBox])
        case object([(String, EncodingBox)])
    }

    var content: Content = .empty

    var node: JSONNode? {
        switch content {
        case .empty: return nil
        case .scalar(let value): return JSONNode(value)
        case .array(let boxes): return JSONNode(.array(boxes.compactMap(\.node)))
        case .object(let members):
            return JSONNode(.object(members.compactMap { key, box in box.node.map { JSONNode.Member(key: key, value: $0) } }))
        }
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// The child box for `key`, replacing an earlier one of the same key (the later write wins, as in JSONEncoder).
    func child(forKey key: String) -> EncodingBox {
        let box = EncodingBox()
        guard case .object(var members) = content else { content = .object([(key, box)]); return box }
        if let index = members.firstIndex(where: { $0.0 == key }) {
            members[index].1 = box
        } else {
            members.append((key, box))
        }
        content = .object(members)
        return box
    }

    func appendChild() -> EncodingBox {
        let box = EncodingBox()
        guard case .array(var boxes) = content else { content = .array([box]); return box }
        boxes.append(box)
        content = .array(boxes)
        return box
    }

    var count: Int {
        if case .array(let boxes) = content { return boxes.count }
        return 0
    }
}

private struct NodeEncoder: Swift.Encoder {
    let box: EncodingBox
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.makeArray()
        return UnkeyedNodeContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(box: box, codingPath: codingPath)
    }

    func encodeValue<T: Encodable>(_ value: T) throws {
        if let url = value as? URL {
            box.content = .scalar(.string(url.absoluteString))
        } else if let time = value as? MediaTime {
            box.content = .scalar(.string(time.reducedRationalText))
        } else {
            try value.encode(to: self)
        }
    }

    static func number(_ value: Double, codingPath: [any CodingKey]) throws -> JSONNode.Value {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number("\(value)")
    }
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: EncodingBox
    let codingPath: [any CodingKey]

    private func set(_ value: JSONNode.Value, _ key: Key) { box.child(forKey: key.stringValue).content = .scalar(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try NodeEncoder.number(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try NodeEncoder.number(Double(value), codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try NodeEncoder(box: box.child(forKey: key.stringValue), codingPath: codingPath + [key]).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = box.child(forKey: key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(box: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = box.child(forKey: key.stringValue)
        child.makeArray()
        return UnkeyedNodeContainer(box: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Swift.Encoder {
        NodeEncoder(box: box.child(forKey: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Swift.Encoder {
        NodeEncoder(box: box.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let box: EncodingBox
    let codingPath: [any CodingKey]
    var count: Int { box.count }

    private func append(_ value: JSONNode.Value) { box.appendChild().content = .scalar(value) }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try NodeEncoder.number(value, codingPath: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try NodeEncoder.number(Double(value), codingPath: nextPath)) }
    mutating func encode(_ value: Int) throws { append(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { append(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { append(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { append(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { append(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { append(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { append(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { append(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { append(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { append(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try NodeEncoder(box: box.appendChild(), codingPath: path).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = box.appendChild()
        child.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(box: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = box.appendChild()
        child.makeArray()
        return UnkeyedNodeContainer(box: child, codingPath: path)
    }

    mutating func superEncoder() -> any Swift.Encoder {
        let path = nextPath
        return NodeEncoder(box: box.appendChild(), codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let box: EncodingBox
    let codingPath: [any CodingKey]

    private func set(_ value: JSONNode.Value) { box.content = .scalar(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try NodeEncoder.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try NodeEncoder.number(Double(value), codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try NodeEncoder(box: box, codingPath: codingPath).encodeValue(value)
    }
}

extension MediaTime {
    /// The `Codable` text of the time with the fraction reduced: `"4"` for 61440/15360, `"1001/30000"`, `"7/2"`,
    /// special values by name. Decodes to a time equal to this one (and keeps the rounded mark).
    var reducedRationalText: String {
        guard isNumeric, value != Int64.min else { return rationalText }
        let divisor = Int64(max(UInt64.greatestCommonDivisor(value.magnitude, UInt64(timescale)), 1))
        let numerator = value / divisor, denominator = Int64(timescale) / divisor
        let text = denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
        return text + (hasBeenRounded ? " (rounded)" : "")
    }
}
