import Foundation
import SpliceTestSupport
import Testing

/// The tests read files through ``TextFile`` and ``BinaryFile``, never through Foundation's whole-file readers
/// (`String(contentsOf:)`, `String(contentsOfFile:)`, `Data(contentsOf:)`, `FileManager.contents(atPath:)`), which
/// leak a 4 KiB buffer for each empty file they read: a tool's empty output read that way makes LeakSanitizer
/// (`scripts/asan`) report the test run. Checked over the source text of `Tests/`, outside comments and string
/// literals.
@Suite("Architecture: tests read files without Foundation's leaking readers")
struct TestFileReadingTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    static let leakingReaders = try! NSRegularExpression(
        pattern: #"\b(?:String\(contentsOf(?:File)?:|Data\(contentsOf:|\.contents\(atPath:)"#)

    @Test func noTestReadsAFileWithFoundationsReaders() throws {
        let base = Self.testsDirectory.standardizedFileURL.path + "/"
        let walker = try #require(FileManager.default.enumerator(atPath: base))
        var read = 0
        var uses: [String] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let code = ExportLayeringTests.code(try TextFile.read(URL(fileURLWithPath: base + relative)))
            read += 1
            let lines = code.components(separatedBy: "\n")
            for (number, line) in lines.enumerated()
            where Self.leakingReaders.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                uses.append("\(relative):\(number + 1)")
            }
        }
        #expect(read >= 100, "read \(read) Swift files below \(base)")
        #expect(uses.isEmpty, "read with TextFile.read / BinaryFile.read instead: \(uses)")
    }
}
