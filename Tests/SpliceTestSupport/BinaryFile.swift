import Foundation

/// Files read by the tests as bytes (raw pictures and samples, media files, JSON logs), without the leak of
/// Foundation's readers: the twin of ``TextFile`` for data, read to its end through a `FileHandle`.
package enum BinaryFile {
    /// The file's bytes, all of them (empty for an empty file).
    /// - Throws: `FileHandle`'s error when the file cannot be opened or read.
    package static func read(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }
}
