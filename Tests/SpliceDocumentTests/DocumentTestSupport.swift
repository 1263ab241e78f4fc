import Composition
import Foundation
import SpliceTestSupport
import SpliceDocument

/// The package's folders, found from this file.
enum Package {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SpliceDocumentTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    /// `Fixtures/media/<path>`.
    static func fixture(_ path: String) -> URL { root.appendingPathComponent("Fixtures/media").appendingPathComponent(path) }

    /// `Examples/<name>`.
    static func example(_ name: String) -> URL { root.appendingPathComponent("Examples").appendingPathComponent(name) }
}

/// A fresh directory for one test, removed by `remove()` (the shared test-support one).
typealias Scratch = ScratchDirectory

/// Documents written into a scratch folder beside links to the canonical fixtures (`clipA.mp4`, `clipB.mp4`,
/// `music.m4a`, `watermark.png`) and to the stills (`photo.jpg`, `alpha.png`).
enum TestDocument {
    static let linkedFixtures = [
        "clipA.mp4": "canonical/clipA.mp4", "clipB.mp4": "canonical/clipB.mp4", "music.m4a": "canonical/music.m4a",
        "watermark.png": "canonical/watermark.png", "photo.jpg": "stills/photo.jpg", "alpha.png": "stills/alpha.png",
    ]

    /// A scratch folder with the links.
    static func folder() throws -> Scratch {
        let scratch = try Scratch()
        for (name, path) in linkedFixtures {
            try FileManager.default.createSymbolicLink(at: scratch.file(name), withDestinationURL: Package.fixture(path))
        }
        return scratch
    }

    /// Loads `text` as `doc.json` in a fresh folder with the links.
    static func load(_ text: String) async throws -> LoadedDocument {
        let scratch = try folder()
        defer { scratch.remove() }
        return try await CompositionDocument.load(from: try scratch.write("doc.json", text))
    }
}

extension MediaTime {
    /// Milliseconds, for short literals.
    static func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

    /// Whole seconds, for short literals.
    static func s(_ value: Int64) -> MediaTime { MediaTime(seconds: value) }
}

extension TimeRange {
    /// `[start, end)` in whole or fractional seconds given as milliseconds.
    static func ms(_ start: Int64, _ end: Int64) -> TimeRange { TimeRange(start: .ms(start), end: .ms(end)) }
}
