import Composition
import Foundation

extension JSONNodeDecoder {
    /// The `Swift.Decoder` for one value of the document: its node, its path, and the decoder whose key bookkeeping
    /// it shares.
    struct NodeDecoder: Swift.Decoder {
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
}

// MARK: - Primitive values

extension JSONNode {
    func decodeBool(at path: [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, "true or false", at: path) }
        return flag
    }

    func decodeString(at path: [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, "a string", at: path) }
        return text
    }

    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type, at path: [any CodingKey]) throws -> I {
        guard case .number(let literal) = value else { throw mismatch(I.self, "a whole number", at: path) }
        if let integer = I(literal) { return integer }
        if let fraction = TimeSyntax.fraction(decimal: literal), fraction.denominator == 1, let integer = I(exactly: fraction.numerator) {
            return integer
        }
        throw DecodingError.dataCorrupted(.init(
            codingPath: path, debugDescription: "expected a whole number from \(I.min) to \(I.max), found \(literal)"))
    }

    func decodeDouble(at path: [any CodingKey]) throws -> Double {
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
