import Foundation

/// Whole files read by the package's modules (documents, plans, subtitle and `.cube` files, logs, `/proc` tables)
/// through a `FileHandle` read to its end, in place of Foundation's whole-file readers.
///
/// `Data(contentsOf:)`, `String(contentsOf:encoding:)` and `String(contentsOfFile:encoding:)` (swift-foundation's
/// `readBytesFromFile`) leak the 4 KiB buffer they allocate each time they read an empty file, which LeakSanitizer
/// reports under `scripts/asan`; a `FileHandle` read to its end does not. The errors are the ones those readers
/// throw, so a caller's message built from them reads the same. It sits in `Composition`, the module every other
/// one imports, so that each can use it.
package enum FileContents {
    /// The file's bytes, all of them (empty for an empty file).
    ///
    /// - Throws: Foundation's `CocoaError` when the file cannot be opened or read (no such file, a directory, no
    ///   permission), with the same code and description as `Data(contentsOf:)`.
    package static func data(of url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    /// The file's bytes as UTF-8 text, a leading byte order mark dropped, as `String(contentsOf:encoding: .utf8)`
    /// reads it ("" for an empty file).
    ///
    /// - Throws: as ``data(of:)``; `CocoaError(.fileReadCorruptFile)` when the bytes are not valid UTF-8, as
    ///   `String(contentsOf:encoding: .utf8)` throws.
    package static func utf8Text(of url: URL) throws -> String {
        guard let text = String(data: try data(of: url), encoding: .utf8) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSURLErrorKey: url])
        }
        return text
    }
}
