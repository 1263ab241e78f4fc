import Foundation

/// A fresh directory for one test's files (`$TMPDIR/splice-<label>-<UUID>`), removed by ``remove()``.
package struct ScratchDirectory: Sendable {
    /// The directory.
    package let url: URL

    /// Creates the directory.
    /// - Parameter label: a word naming the test in the directory's name; `test` by default.
    /// - Throws: `FileManager`'s error when the directory cannot be created.
    package init(_ label: String = "test") throws {
        url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("splice-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of `name` in the directory (nothing is created).
    package func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `data` to `name` in the directory.
    /// - Returns: the file's URL.
    /// - Throws: `Data.write(to:)`'s error.
    package func write(_ name: String, _ data: Data) throws -> URL {
        let file = file(name)
        try data.write(to: file)
        return file
    }

    /// Writes `text` (UTF-8) to `name` in the directory.
    /// - Returns: the file's URL.
    /// - Throws: `Data.write(to:)`'s error.
    @discardableResult
    package func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    /// Every entry left in the directory, hidden temporary files included, sorted (to prove no temporary file
    /// survives).
    package var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// Removes the directory and everything in it; errors are ignored.
    package func remove() { try? FileManager.default.removeItem(at: url) }
}
