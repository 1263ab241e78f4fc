import Foundation

/// Text files read by the tests (tools' output, logs, playlists) without the leak of Foundation's readers: the
/// file is read to its end through a `FileHandle`.
///
/// `String(contentsOf:encoding:)`, `Data(contentsOf:)` and `FileManager.contents(atPath:)` (swift-foundation's
/// `readBytesFromFile`) leak the 4 KiB buffer they allocate each time they read an empty file — a tool's empty
/// standard output, a log nothing was written to yet — which LeakSanitizer reports under `scripts/asan`; a
/// `FileHandle` read to its end does not (``BinaryFile``, the twin for bytes).
package enum TextFile {
    /// The file's bytes as UTF-8 text (invalid sequences replaced).
    /// - Throws: `FileHandle`'s error when the file cannot be opened or read.
    package static func read(_ url: URL) throws -> String {
        String(decoding: try BinaryFile.read(url), as: UTF8.self)
    }

    /// ``read(_:)``, or "" when the file cannot be read (missing, not yet written).
    package static func text(of url: URL) -> String {
        (try? read(url)) ?? ""
    }
}
