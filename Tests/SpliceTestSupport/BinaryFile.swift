import Foundation
import Splice

/// Files read by the tests as bytes (raw pictures and samples, media files, JSON logs), without the leak of
/// Foundation's readers: the twin of ``TextFile`` for data, through the package's own reader
/// (`Composition`'s `FileContents`, a `FileHandle` read to its end).
package enum BinaryFile {
    /// The file's bytes, all of them (empty for an empty file).
    /// - Throws: `FileHandle`'s error when the file cannot be opened or read.
    package static func read(_ url: URL) throws -> Data {
        try FileContents.data(of: url)
    }
}
