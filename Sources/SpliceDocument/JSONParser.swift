/// A JSON syntax error at a line and column.
package struct JSONSyntaxError: Error, Sendable, Hashable {
    /// Where the text stops being JSON.
    package var position: JSONPosition
    /// What was expected or found there.
    package var message: String
}

/// A strict JSON (RFC 8259) parser that keeps positions and member order, for composition documents.
///
/// Foundation's parsers report neither the line of a syntax error nor where a decoded value came from; documents
/// are written by hand, so both matter. Beyond RFC 8259 the parser rejects duplicate keys (the meaning of a
/// document would depend on which one wins) and nesting deeper than ``maximumDepth``; it names common slips
/// (a trailing comma, a comment, a single-quoted string) in its messages. It never traps on any input.
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted (so hostile input cannot exhaust the stack).
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1

    /// A parser over UTF-8 `bytes` (a leading byte-order mark is skipped).
    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// Parses one JSON value filling the whole text.
    ///
    /// - Throws: ``JSONSyntaxError`` at the first place the text is not JSON.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count else { throw parser.error("the document is empty: expected a JSON object") }
        let node = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < parser.bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return node
    }

    // MARK: Values

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        let start = position
        guard let byte = current else { throw error("unexpected end of the text: expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(try parseObject(depth: depth), at: start)
        case UInt8(ascii: "["): return JSONNode(try parseArray(depth: depth), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(.number(try parseNumber()), at: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(.null, at: start)
        case UInt8(ascii: "'"): throw error("strings must be in double quotes (\"…\"), not single quotes")
        case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
        default: throw error("unexpected \(describeCurrent()): expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        advance()  // {
        var members: [JSONNode.Member] = []
        var keyLines: [String: Int] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { advance(); return .object(members) }
        while true {
            skipWhitespace()
            guard let byte = current else { throw error("unexpected end of the text inside an object: expected a key") }
            if byte == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
            if byte == UInt8(ascii: "/") { throw error("comments are not allowed in JSON") }
            guard byte == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()): expected a key in double quotes")
            }
            let keyPosition = position
            let key = try parseString()
            if let firstLine = keyLines[key] {
                throw JSONSyntaxError(position: keyPosition, message: "duplicate key '\(key)' (first given on line \(firstLine))")
            }
            keyLines[key] = keyPosition.line
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("unexpected \(describeCurrent()): expected ':' after the key '\(key)'") }
            advance()
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append(JSONNode.Member(key: key, value: value))
            skipWhitespace()
            guard let next = current else { throw error("unexpected end of the text: expected ',' or '}' to close the object") }
            if next == UInt8(ascii: ",") { advance(); continue }
            if next == UInt8(ascii: "}") { advance(); return .object(members) }
            throw error("unexpected \(describeCurrent()): expected ',' or '}' after the value of '\(key)'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        advance()  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { advance(); return .array(elements) }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard let next = current else { throw error("unexpected end of the text: expected ',' or ']' to close the array") }
            if next == UInt8(ascii: ",") { advance(); continue }
            if next == UInt8(ascii: "]") { advance(); return .array(elements) }
            throw error("unexpected \(describeCurrent()): expected ',' or ']' after an array element")
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        advance()  // "
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []  // raw UTF-8 between escapes
        func flush() {
            if !run.isEmpty {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
        }
        while true {
            guard let byte = current else {
                throw JSONSyntaxError(position: start, message: "this string is never closed (missing '\"')")
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                let escapeStart = position
                advance()
                guard let escape = current else { throw error("unexpected end of the text in an escape sequence") }
                advance()
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard current == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                            throw error("a \\u escape of a high surrogate must be followed by a low surrogate")
                        }
                        advance(); advance()
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in a \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("\\u escape names no Unicode character") }
                    scalars.append(scalar)
                default:
                    throw JSONSyntaxError(
                        position: escapeStart, message: "invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            case 0x00..<0x20:
                throw error(byte == 0x0A ? "a string cannot span lines (write \\n for a line break)"
                                         : "control character in a string (escape it)")
            default:
                run.append(byte)
                advance()
            }
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw error("expected four hex digits after \\u") }
            code = code << 4 | digit
            advance()
        }
        return code
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let startIndex = index
        if current == UInt8(ascii: "-") { advance() }
        guard let first = current, Self.isDigit(first) else { throw error("expected a digit in a number") }
        if first == UInt8(ascii: "0") {
            advance()
            if let next = current, Self.isDigit(next) { throw error("numbers cannot have leading zeros") }
        } else {
            while let byte = current, Self.isDigit(byte) { advance() }
        }
        if current == UInt8(ascii: ".") {
            advance()
            guard let byte = current, Self.isDigit(byte) else { throw error("expected a digit after the decimal point") }
            while let byte = current, Self.isDigit(byte) { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard let byte = current, Self.isDigit(byte) else { throw error("expected a digit in the exponent") }
            while let byte = current, Self.isDigit(byte) { advance() }
        }
        if let byte = current, Self.isLetter(byte) {
            throw error("unexpected \(describeCurrent()) after a number (a time with a unit, like 3.5s, must be a string: \"3.5s\")")
        }
        return String(decoding: bytes[startIndex..<index], as: UTF8.self)
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let start = position
        let startIndex = index
        for expected in word.utf8 {
            guard current == expected else {
                var found = ""
                var probe = startIndex
                while probe < bytes.count, Self.isLetter(bytes[probe]) || Self.isDigit(bytes[probe]), found.count < 20 {
                    found.append(Character(Unicode.Scalar(bytes[probe])))
                    probe += 1
                }
                throw JSONSyntaxError(
                    position: start,
                    message: "unexpected word '\(found)': expected a value (strings need double quotes)")
            }
            advance()
        }
    }

    // MARK: Scanning

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private var position: JSONPosition { JSONPosition(line: line, column: column) }

    private mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1  // count scalars: UTF-8 continuation bytes do not start a column
        }
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(position: position, message: message)
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of the text" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
