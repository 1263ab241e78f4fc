import Foundation

/// Documents written into a scratch folder beside links to the canonical fixtures (`clipA.mp4`, `clipB.mp4`,
/// `music.m4a`, `watermark.png`) and to the stills (`photo.jpg`, `alpha.png`), as a document names its sources.
package enum TestDocument {
    /// Each link's name in the folder → its fixture's path under `Fixtures/media`.
    package static let linkedFixtures = [
        "clipA.mp4": "canonical/clipA.mp4", "clipB.mp4": "canonical/clipB.mp4", "music.m4a": "canonical/music.m4a",
        "watermark.png": "canonical/watermark.png", "photo.jpg": "stills/photo.jpg", "alpha.png": "stills/alpha.png",
    ]

    /// A fresh scratch folder with the links (the caller removes it).
    /// - Throws: `FileManager`'s error when the folder or a link cannot be made.
    package static func folder() throws -> ScratchDirectory {
        let scratch = try ScratchDirectory()
        for (name, path) in linkedFixtures {
            try FileManager.default.createSymbolicLink(at: scratch.file(name), withDestinationURL: Fixture.url(path))
        }
        return scratch
    }
}
