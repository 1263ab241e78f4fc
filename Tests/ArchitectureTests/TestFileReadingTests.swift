import Foundation
import SpliceTestSupport
import Testing

/// The tests read files through ``TextFile`` and ``BinaryFile``, and the products through `Composition`'s
/// `FileContents` (which those two wrap), never through Foundation's whole-file readers (`String(contentsOf:)`,
/// `String(contentsOfFile:)`, `Data(contentsOf:)`, `FileManager.contents(atPath:)`), which leak a 4 KiB buffer for
/// each empty file they read: a tool's empty output or an empty document read that way makes LeakSanitizer
/// (`scripts/asan`) report the run. Checked over the source text of `Tests/` and `Sources/`, outside comments and
/// string literals.
@Suite("Architecture: the package reads files without Foundation's leaking readers")
struct TestFileReadingTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let sourcesDirectory = testsDirectory.deletingLastPathComponent().appendingPathComponent("Sources")

    static let leakingReaders = try! NSRegularExpression(
        pattern: #"\b(?:String\(contentsOf(?:File)?:|Data\(contentsOf:|\.contents\(atPath:)"#)

    /// Each use of a leaking reader in the Swift files below `directory`, as `path:line` relative to it, and how many
    /// files were read.
    static func uses(below directory: URL) throws -> (uses: [String], read: Int) {
        let base = directory.standardizedFileURL.path + "/"
        let walker = try #require(FileManager.default.enumerator(atPath: base))
        var read = 0
        var uses: [String] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let code = ExportLayeringTests.code(try TextFile.read(URL(fileURLWithPath: base + relative)))
            read += 1
            let lines = code.components(separatedBy: "\n")
            for (number, line) in lines.enumerated()
            where leakingReaders.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                uses.append("\(relative):\(number + 1)")
            }
        }
        return (uses, read)
    }

    @Test func noTestReadsAFileWithFoundationsReaders() throws {
        let (uses, read) = try Self.uses(below: Self.testsDirectory)
        #expect(read >= 100, "read \(read) Swift files below \(Self.testsDirectory.path)")
        #expect(uses.isEmpty, "read with TextFile.read / BinaryFile.read instead: \(uses)")
    }

    @Test func noProductCodeReadsAFileWithFoundationsReaders() throws {
        let (uses, read) = try Self.uses(below: Self.sourcesDirectory)
        #expect(read >= 300, "read \(read) Swift files below \(Self.sourcesDirectory.path)")
        #expect(uses.isEmpty, "read with FileContents.data(of:) / utf8Text(of:) instead: \(uses)")
    }
}
