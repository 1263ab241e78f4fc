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

    /// `Examples/<name>`: the example documents shipped with the package.
    package static func example(_ name: String) -> URL { packageRoot.appendingPathComponent("Examples").appendingPathComponent(name) }

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
        if !present { SkippedTests.record(Test.current?.name ?? "a test", needs: .realFootage) }
        return present
    }
}

/// Tests skipped because something they need is absent, reported at the end of the test process in one line per
/// missing thing (an `atexit` handler: it runs after Swift Testing and XCTest print their summaries), so a run that
/// skipped them cannot pass for one that ran them.
package enum SkippedTests {
    /// What a skipped test lacked: the words of its end-of-run line.
    package enum Need: Sendable, Hashable {
        /// `../shared/media` (the real phone clips).
        case realFootage
        /// The Python verifiers in `.venv` (`scripts/setup` installs them).
        case pythonVerifiers
        /// A command-line tool found on `PATH` (`ffprobe`, `exiftool`): `scripts/setup` installs its Debian package.
        case commandLineTool(String)

        fileprivate var noun: String {
            switch self {
            case .realFootage: "real-footage"
            case .pythonVerifiers: "Python-verified"
            case .commandLineTool(let name): "\(name)-verified"
            }
        }

        fileprivate var remedy: String {
            switch self {
            case .realFootage:
                "\(Fixture.sharedMediaFolder.path) is absent — put the shared phone clips there (see shared/media/README.md) "
                    + "or set SPLICE_SHARED_MEDIA to their folder to run them"
            case .pythonVerifiers:
                "\(PythonVerifier.interpreter.path) is absent — run ./scripts/setup, which installs scripts/python/requirements.txt there"
            case .commandLineTool(let name):
                "\(name) is not on PATH — run ./scripts/setup, which installs the Debian packages in scripts/packages/*.list"
            }
        }
    }

    private static let names = Locked<(registered: Bool, names: [Need: [String]])>((false, [:]))

    /// Records that `name` was skipped for lack of `need`; the first call registers the end-of-run lines.
    package static func record(_ name: String, needs need: Need) {
        let first = names.withLock { state -> Bool in
            if !(state.names[need] ?? []).contains(name) { state.names[need, default: []].append(name) }
            defer { state.registered = true }
            return !state.registered
        }
        if first { atexit { SkippedTests.printSummary() } }
    }

    /// The end-of-run lines (one per need, `SKIPPED n … tests (names): remedy`), or nil when nothing was skipped.
    package static var summary: String? {
        let skipped = names.withLock { $0.names }
        guard !skipped.isEmpty else { return nil }
        return skipped.keys.sorted { $0.noun < $1.noun }.map { need in
            let names = skipped[need] ?? []
            let shown = names.prefix(6).joined(separator: ", ") + (names.count > 6 ? ", …" : "")
            return "SKIPPED \(names.count) \(need.noun) test\(names.count == 1 ? "" : "s") (\(shown)): \(need.remedy)"
        }.joined(separator: "\n")
    }

    private static func printSummary() {
        guard let line = summary else { return }
        // Standard output is flushed by exit() after the atexit handlers; write(2) keeps it in order regardless.
        FileHandle.standardOutput.write(Data(("\n" + line + "\n").utf8))
    }
}
