import Foundation
import Composition

/// A 3D lookup table from a `.cube` file (the Adobe / DaVinci Resolve text format that FFmpeg's `lut3d` reads): a
/// `LUT_3D_SIZE N` line, optional `TITLE`, `DOMAIN_MIN` and `DOMAIN_MAX` lines, then N³ rows of three numbers
/// (output R G B, red varying fastest), `#` comments and blank lines anywhere.
///
/// Used to check a ``VideoEffect/lookupTable(_:)`` file before anything is rendered, so a missing or malformed
/// table is reported with its file and line (``CubeLookupTableError``) rather than as a failure inside FFmpeg.
public struct CubeLookupTable: Sendable, Hashable {
    /// The largest `LUT_3D_SIZE` FFmpeg's `lut3d` reads (its `MAX_LEVEL`, libavfilter 8).
    public static let maximumSize = 256

    /// Points per axis (`LUT_3D_SIZE`), 2…256.
    public var size: Int
    /// The input domain's lower and upper corner (`DOMAIN_MIN`, `DOMAIN_MAX`); (0, 0, 0) and (1, 1, 1) by default.
    public var domainMin: [Double]
    public var domainMax: [Double]
    /// size³ output colours, (R, G, B) each, red varying fastest, then green, then blue.
    public var entries: [[Double]]

    /// Reads and checks the `.cube` file at `url`.
    ///
    /// - Throws: ``CubeLookupTableError`` naming the file and, for malformed content, the 1-based line.
    public init(contentsOf url: URL) throws(CubeLookupTableError) {
        let text: String
        do {
            text = try FileContents.utf8Text(of: url)
        } catch {
            throw CubeLookupTableError(url: url, line: nil, reason: FileManager.default.fileExists(atPath: url.path)
                ? "cannot be read as UTF-8 text" : "does not exist")
        }
        try self.init(parsing: text, url: url)
    }

    /// Parses `.cube` text; `url` names it in errors.
    ///
    /// - Throws: ``CubeLookupTableError`` naming the file and the 1-based line of the first problem.
    public init(parsing text: String, url: URL) throws(CubeLookupTableError) {
        var size: Int?
        var domainMin = [0.0, 0.0, 0.0], domainMax = [1.0, 1.0, 1.0]
        var entries: [[Double]] = []
        var lastLine = 0
        func fail(_ line: Int?, _ reason: String) -> CubeLookupTableError {
            CubeLookupTableError(url: url, line: line, reason: reason)
        }
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let keyword = words.first else { continue }
            lastLine = number
            func numbers(_ count: Int) throws(CubeLookupTableError) -> [Double] {
                let values = words.dropFirst(keyword.first?.isLetter == true ? 1 : 0).map { Double($0) }
                guard values.count == count, values.allSatisfy({ $0?.isFinite == true }) else {
                    throw fail(number, "expected \(count) numbers, found '\(line.trimmingCharacters(in: .whitespaces))'")
                }
                return values.compactMap { $0 }
            }
            switch keyword {
            case "TITLE":
                continue
            case "LUT_1D_SIZE":
                throw fail(number, "is a 1D lookup table; lut3d reads 3D tables (LUT_3D_SIZE)")
            case "LUT_3D_SIZE":
                guard size == nil else { throw fail(number, "LUT_3D_SIZE is given twice") }
                guard words.count == 2, let value = Int(words[1]), (2...Self.maximumSize).contains(value) else {
                    throw fail(number, "LUT_3D_SIZE must be one whole number from 2 to \(Self.maximumSize)")
                }
                size = value
            case "DOMAIN_MIN":
                domainMin = try numbers(3)
            case "DOMAIN_MAX":
                domainMax = try numbers(3)
            default:
                guard keyword.first?.isLetter != true || Double(keyword) != nil else {
                    throw fail(number, "unknown keyword '\(keyword)'")
                }
                guard let size else { throw fail(number, "a colour row comes before LUT_3D_SIZE") }
                guard entries.count < size * size * size else {
                    throw fail(number, "more than \(size)³ = \(size * size * size) colour rows")
                }
                entries.append(try numbers(3))
            }
        }
        guard let size else { throw fail(nil, "has no LUT_3D_SIZE line") }
        guard entries.count == size * size * size else {
            throw fail(lastLine, "has \(entries.count) colour rows; LUT_3D_SIZE \(size) needs \(size * size * size)")
        }
        guard (0..<3).allSatisfy({ domainMin[$0] < domainMax[$0] }) else {
            throw fail(nil, "DOMAIN_MIN must be below DOMAIN_MAX on every channel")
        }
        self.size = size
        self.domainMin = domainMin
        self.domainMax = domainMax
        self.entries = entries
    }
}
