import Foundation
import Splice

/// The repository's fixtures, found from this file's path (`#filePath`; no bundled resources): the bundled media
/// (`Fixtures/media`, made by `Fixtures/make-fixtures`, facts in `Fixtures/README.md`), the golden frames
/// (`Fixtures/goldens`) and the real phone clips of `../shared/media` beside the package (not in the repository).
package enum Fixture {
    /// The package root.
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SpliceTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    /// `Fixtures/media`.
    package static let folder: URL = packageRoot.appendingPathComponent("Fixtures/media")

    /// `Fixtures/media/<path>`.
    package static func url(_ path: String) -> URL { folder.appendingPathComponent(path) }

    /// `Fixtures/media/<path>` loaded with `Asset.load(from:)`.
    package static func asset(_ path: String) async throws -> Asset { try await Asset.load(from: url(path)) }

    /// `Fixtures/goldens`.
    package static let goldens: URL = packageRoot.appendingPathComponent("Fixtures/goldens")

    /// `../shared/media` beside the package root (real phone clips; facts in its README.md).
    package static let sharedMediaFolder: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media")

    /// `../shared/media/<name>`.
    package static func sharedMedia(_ name: String) -> URL { sharedMediaFolder.appendingPathComponent(name) }

    /// True when ``sharedMediaFolder`` exists; prints a loud notice each time it does not, so a run without the
    /// clips says which tests it skipped.
    package static var sharedMediaIsAvailable: Bool {
        let present = FileManager.default.fileExists(atPath: sharedMediaFolder.path)
        if !present {
            print("""
                ************************************************************************
                * SKIPPING real-media tests: \(sharedMediaFolder.path) is absent.
                * These tests need the shared phone clips (see shared/media/README.md).
                ************************************************************************
                """)
        }
        return present
    }
}
