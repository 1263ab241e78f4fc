extension JSONNode {
    /// The node as JSON text for people: two-space indentation, members in order, and any array or object whose
    /// one-line form fits in `lineWidth` characters (with its indentation) kept on one line — so a time range reads
    /// `{ "start": "0/1", "duration": "4/1" }` instead of four lines. Ends without a newline.
    package func prettyPrinted(lineWidth: Int = 100) -> String {
        var output = ""
        write(to: &output, indent: 0, prefix: 0, lineWidth: lineWidth)
        return output
    }

    /// The node as compact one-line JSON (`{"a":1,"b":[2,3]}`), for JSON-lines output.
    package var compactText: String {
        switch value {
        case .null, .bool, .number, .string: return scalarText
        case .array(let elements): return "[" + elements.map(\.compactText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Self.quoted($0.key) + ":" + $0.value.compactText }.joined(separator: ",") + "}"
        }
    }

    /// Writes the node starting after `indent + prefix` characters of its first line (`prefix`: a member's key).
    private func write(to output: inout String, indent: Int, prefix: Int, lineWidth: Int) {
        if let inline = inlineText(budget: lineWidth - indent - prefix) {
            output += inline
            return
        }
        let inner = String(repeating: " ", count: indent + 2)
        switch value {
        case .array(let elements):
            output += "[\n"
            for (offset, element) in elements.enumerated() {
                output += inner
                element.write(to: &output, indent: indent + 2, prefix: 0, lineWidth: lineWidth)
                output += offset == elements.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            output += "{\n"
            for (offset, member) in members.enumerated() {
                let key = Self.quoted(member.key) + ": "
                output += inner + key
                member.value.write(to: &output, indent: indent + 2, prefix: key.count, lineWidth: lineWidth)
                output += offset == members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "}"
        default:
            output += scalarText
        }
    }

    /// The one-line form with spaces (`{ "a": 1 }`, `[1, 2]`), or nil when it is longer than `budget` or holds a
    /// container with more than a few members (kept readable rather than dense).
    private func inlineText(budget: Int) -> String? {
        guard budget > 0 else { return nil }
        switch value {
        case .null, .bool, .number, .string: return scalarText
        case .array(let elements):
            if elements.isEmpty { return "[]" }
            var parts: [String] = []
            var length = 2
            for element in elements {
                guard let part = element.inlineText(budget: budget - length) else { return nil }
                length += part.count + 2
                guard length <= budget else { return nil }
                parts.append(part)
            }
            return "[" + parts.joined(separator: ", ") + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            guard members.count <= 6 else { return nil }
            var parts: [String] = []
            var length = 4
            for member in members {
                if case .object(let inner) = member.value.value, inner.count > 2 { return nil }
                let key = Self.quoted(member.key) + ": "
                guard let part = member.value.inlineText(budget: budget - length - key.count) else { return nil }
                length += key.count + part.count + 2
                guard length <= budget else { return nil }
                parts.append(key + part)
            }
            return "{ " + parts.joined(separator: ", ") + " }"
        }
    }

    private var scalarText: String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return Self.quoted(text)
        case .array, .object: return compactText
        }
    }

    /// `text` as a JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t` or `\u00XX`;
    /// `/` and non-ASCII characters written as they are.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
