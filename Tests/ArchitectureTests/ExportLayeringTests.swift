import Foundation
import SpliceTestSupport
import Testing

/// The `Export` module's folders are layers: a folder uses only the folders listed after it in ``layers`` (the
/// README's "Architecture" section draws the same list). Checked over the source text: every type declared at the
/// top level of a file belongs to its folder, and a file that names a type of a folder listed before its own
/// (outside comments and string literals) is an upward arrow.
@Suite("Architecture: Export's folders point one way")
struct ExportLayeringTests {
    /// Top to bottom. "." is the module's top level: the public API that calls the stages below.
    static let layers = [
        ".", "Segments", "SmartRendering", "Output", "VideoRendering", "AudioRendering", "Planning", "Compositing",
        "CustomCompositing", "AssetLoading", "Reading", "Settings", "Errors",
    ]

    static let exportDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Export")

    /// A Swift source with its comments and string literals blanked out (so a doc comment may name any type).
    static func code(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        var inString = false
        while index < text.endIndex {
            let rest = text[index...]
            if !inString && rest.hasPrefix("//") {
                index = rest.firstIndex(of: "\n") ?? text.endIndex
                continue
            }
            if !inString && rest.hasPrefix("/*") {
                index = rest.range(of: "*/").map(\.upperBound) ?? text.endIndex
                continue
            }
            let character = text[index]
            if character == "\\" && inString {
                index = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                continue
            }
            if character == "\"" { inString.toggle() }
            if !inString || character == "\n" { result.append(character) }
            index = text.index(after: index)
        }
        return result
    }

    /// Each Swift file below `Sources/Export`, by layer (its first path component, "." for the top level).
    static func sources() throws -> [(layer: String, path: String, code: String)] {
        let base = exportDirectory.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var files: [(String, String, String)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let parts = relative.split(separator: "/")
            let layer = parts.count == 1 ? "." : String(parts[0])
            let text = try TextFile.read(URL(fileURLWithPath: base + relative))
            files.append((layer, relative, code(text)))
        }
        return files
    }

    /// Names declared at a file's top level (`struct`, `class`, `enum`, `protocol`, `actor`, `typealias`).
    static func declaredTypes(in code: String) -> [String] {
        let pattern = #"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)"#
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(code.startIndex..., in: code)
        return expression.matches(in: code, range: range).compactMap { Range($0.range(at: 1), in: code).map { String(code[$0]) } }
    }

    @Test func everyFolderIsALayer() throws {
        let layers = Set(try Self.sources().map(\.layer))
        #expect(layers.isSubset(of: Set(Self.layers)), "folders not in the list: \(layers.subtracting(Self.layers).sorted())")
        #expect(layers.count >= 10, "read \(layers.count) folders from \(Self.exportDirectory.path)")
    }

    @Test func noFolderUsesAFolderAboveIt() throws {
        let files = try Self.sources()
        var owner: [String: String] = [:]
        for file in files {
            for name in Self.declaredTypes(in: file.code) { owner[name] = owner[name] ?? file.layer }
        }
        #expect(owner.count > 100, "found \(owner.count) types")
        let rank = Dictionary(uniqueKeysWithValues: Self.layers.enumerated().map { ($1, $0) })
        var arrows: [String] = []
        for file in files {
            guard let own = rank[file.layer] else { continue }
            let words = Set(file.code.split { !$0.isLetter && !$0.isNumber && $0 != "_" }.map(String.init))
            for word in words {
                guard let layer = owner[word], let other = rank[layer], other < own else { continue }
                arrows.append("\(file.path) uses \(word) (\(layer))")
            }
        }
        #expect(arrows.isEmpty, "upward arrows:\n\(arrows.sorted().joined(separator: "\n"))")
    }
}
