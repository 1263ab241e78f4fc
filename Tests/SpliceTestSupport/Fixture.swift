import Foundation
import Splice
import SpliceFFmpeg
import Testing

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

    /// `../shared/media` beside the package root (real phone clips; facts in its README.md), or the folder
    /// `SPLICE_SHARED_MEDIA` names.
    package static let sharedMediaFolder: URL = {
        if let path = ProcessInfo.processInfo.environment["SPLICE_SHARED_MEDIA"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media")
    }()

    /// `../shared/media/<name>`.
    package static func sharedMedia(_ name: String) -> URL { sharedMediaFolder.appendingPathComponent(name) }

    /// True when ``sharedMediaFolder`` exists. When it does not, the test asking (`.enabled(if:)`) is recorded and
    /// ONE line is printed when the test process ends — after the run's summary, where it is seen:
    /// `SKIPPED 17 real-footage tests (…): ../shared/media is absent — …how to enable them`.
    package static var sharedMediaIsAvailable: Bool {
        let present = FileManager.default.fileExists(atPath: sharedMediaFolder.path)
        if !present { SkippedTests.record(Test.current?.name ?? "a test", needs: "real-footage") }
        return present
    }
}

/// Tests skipped because something they need is absent, reported in one line at the end of the test process (an
/// `atexit` handler: it runs after Swift Testing and XCTest print their summaries), so a run that skipped them
/// cannot pass for one that ran them.
package enum SkippedTests {
    private static let names = Locked<(registered: Bool, names: [String])>((false, []))

    /// Records that `name` was skipped for lack of `what`; the first call registers the end-of-run line.
    package static func record(_ name: String, needs what: String) {
        let first = names.withLock { state -> Bool in
            if !state.names.contains(name) { state.names.append(name) }
            defer { state.registered = true }
            return !state.registered
        }
        if first { atexit { SkippedTests.printSummary() } }
    }

    /// The end-of-run line, or nil when nothing was skipped.
    package static var summary: String? {
        let skipped = names.withLock { $0.names }
        guard !skipped.isEmpty else { return nil }
        let shown = skipped.prefix(6).joined(separator: ", ") + (skipped.count > 6 ? ", …" : "")
        return "SKIPPED \(skipped.count) real-footage test\(skipped.count == 1 ? "" : "s") (\(shown)): "
            + "\(Fixture.sharedMediaFolder.path) is absent — put the shared phone clips there (see shared/media/README.md) "
            + "or set SPLICE_SHARED_MEDIA to their folder to run them"
    }

    private static func printSummary() {
        guard let line = summary else { return }
        // Standard output is flushed by exit() after the atexit handlers; write(2) keeps it in order regardless.
        FileHandle.standardOutput.write(Data(("\n" + line + "\n").utf8))
    }
}
