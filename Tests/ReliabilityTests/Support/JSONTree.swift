import Foundation

/// A JSON document as a tree the fuzzer can edit, with numbers kept as their exact text (so `9223372036854775807`
/// and `1e309` survive a round trip that `JSONSerialization` would round).
indirect enum JSONTree: Sendable {
    case object([JSONMember])
    case array([JSONTree])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    // MARK: Text

    var text: String {
        switch self {
        case .object(let members):
            return "{" + members.map { Self.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        case .array(let elements): return "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .string(let value): return Self.quoted(value)
        case .number(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    private static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 { result += String(format: "\\u%04x", scalar.value) } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result + "\""
    }

    // MARK: Parsing (strict enough for JSONEncoder's output)

    struct ParseError: Error {}

    init(parsing text: String) throws {
        var parser = Parser(bytes: Array(text.utf8))
        self = try parser.value()
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws -> JSONTree {
            skipSpace()
            guard index < bytes.count else { throw ParseError() }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [JSONMember] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard case .string(let key) = try value() else { throw ParseError() }
                    skipSpace()
                    guard bytes[index] == UInt8(ascii: ":") else { throw ParseError() }
                    index += 1
                    members.append(JSONMember(key: key, value: try value()))
                    skipSpace()
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { throw ParseError() }
                    index += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONTree] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                while true {
                    elements.append(try value())
                    skipSpace()
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { throw ParseError() }
                    index += 1
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                index += 1
                var scalars: [UInt8] = []
                while bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        index += 1
                        switch bytes[index] {
                        case UInt8(ascii: "n"): scalars.append(0x0A)
                        case UInt8(ascii: "t"): scalars.append(0x09)
                        case UInt8(ascii: "u"):
                            let hex = String(decoding: bytes[(index + 1)...(index + 4)], as: UTF8.self)
                            scalars += Array(String(UnicodeScalar(UInt32(hex, radix: 16) ?? 0x3F).map(Character.init) ?? "?").utf8)
                            index += 4
                        default: scalars.append(bytes[index])
                        }
                    } else {
                        scalars.append(bytes[index])
                    }
                    index += 1
                }
                index += 1
                return .string(String(decoding: scalars, as: UTF8.self))
            case UInt8(ascii: "t"): index += 4; return .bool(true)
            case UInt8(ascii: "f"): index += 5; return .bool(false)
            case UInt8(ascii: "n"): index += 4; return .null
            default:
                let start = index
                while index < bytes.count, "-+.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                guard index > start else { throw ParseError() }
                return .number(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }
    }

    // MARK: Editing

    /// A way down the tree: object member or array element indices.
    typealias Path = [Int]

    /// Every node's path, the root's (`[]`) first.
    var paths: [Path] {
        var result: [Path] = [[]]
        switch self {
        case .object(let members):
            for (i, member) in members.enumerated() { result += member.value.paths.map { [i] + $0 } }
        case .array(let elements):
            for (i, element) in elements.enumerated() { result += element.paths.map { [i] + $0 } }
        default: break
        }
        return result
    }

    func node(at path: Path) -> JSONTree {
        guard let first = path.first else { return self }
        switch self {
        case .object(let members): return members[first].value.node(at: Array(path.dropFirst()))
        case .array(let elements): return elements[first].node(at: Array(path.dropFirst()))
        default: return self
        }
    }

    /// The tree with the node at `path` replaced by `transform(node)`.
    func replacing(at path: Path, _ transform: (JSONTree) -> JSONTree) -> JSONTree {
        guard let first = path.first else { return transform(self) }
        let rest = Array(path.dropFirst())
        switch self {
        case .object(var members):
            members[first].value = members[first].value.replacing(at: rest, transform)
            return .object(members)
        case .array(var elements):
            elements[first] = elements[first].replacing(at: rest, transform)
            return .array(elements)
        default: return self
        }
    }
}

/// One member of a JSON object, in document order.
struct JSONMember: Sendable {
    var key: String
    var value: JSONTree
}
