import Foundation
import Testing
import Splice
import SpliceTestSupport

/// Every Swift sample in README.md and docs/*.md is one of ``DocumentationSamples`` verbatim (so it compiles with the
/// tests) and is run here on the bundled fixtures, its result checked: a doc sample cannot rot again.
@Suite("Documentation samples", .serialized)
struct DocumentationSampleTests {
    /// The markdown files whose Swift blocks are checked.
    static let documents = ["README.md", "docs/README.md", "docs/porting.md", "docs/cli.md", "docs/document-format.md"]

    /// Each `// sample: NAME` … `// end sample` region of DocumentationSamples.swift, dedented.
    static func samples() throws -> [String: String] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DocumentationSamples.swift")
        let lines = try TextFile.read(file).components(separatedBy: "\n")
        var samples: [String: String] = [:]
        var name: String?
        var indent = 0
        var body: [String] = []
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// sample: ") {
                name = String(trimmed.dropFirst("// sample: ".count))
                indent = line.prefix { $0 == " " }.count
                body = []
            } else if trimmed == "// end sample", let current = name {
                samples[current] = body.joined(separator: "\n")
                name = nil
            } else if name != nil {
                body.append(line.count >= indent ? String(line.dropFirst(indent)) : line.trimmingCharacters(in: .whitespaces))
            }
        }
        return samples
    }

    /// The ```` ```swift ```` blocks of `document`, each without its leading `import` lines and the blank line after.
    static func swiftBlocks(in document: String) throws -> [String] {
        let text = try TextFile.read(Fixture.packageRoot.appendingPathComponent(document))
        var blocks: [String] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if var block = current, line.hasPrefix("```") {
                while let first = block.first, first.hasPrefix("import ") || (first.isEmpty && !block.isEmpty) {
                    block.removeFirst()
                }
                blocks.append(block.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test(arguments: documents)
    func everySwiftBlockIsAVerbatimSample(document: String) throws {
        let samples = try Self.samples()
        #expect(samples.count == 7)
        for block in try Self.swiftBlocks(in: document) {
            #expect(samples.values.contains(block),
                    "a Swift block in \(document) is not a sample of DocumentationSamples.swift (edit the sample, paste it): \n\(block)")
        }
    }

    @Test func everySampleAppearsInTheDocs() throws {
        let blocks = try Self.documents.flatMap(Self.swiftBlocks)
        for (name, sample) in try Self.samples() {
            #expect(blocks.contains(sample), "sample \(name) is in no document")
        }
    }

    /// A scratch folder with the names the samples use, made the current directory while `body` runs.
    static func inSampleFolder(_ body: () async throws -> Void) async throws -> ScratchDirectory {
        let scratch = try ScratchDirectory("samples")
        let links = [
            "a.mov": "canonical/clipA.mp4", "b.mov": "canonical/clipB.mp4", "clipA.mp4": "canonical/clipA.mp4",
            "clipB.mp4": "canonical/clipB.mp4", "music.m4a": "canonical/music.m4a", "watermark.png": "canonical/watermark.png",
        ]
        for (name, path) in links {
            try FileManager.default.createSymbolicLink(at: scratch.file(name), withDestinationURL: Fixture.url(path))
        }
        try FileManager.default.createSymbolicLink(at: scratch.file("Examples"), withDestinationURL: Fixture.packageRoot.appendingPathComponent("Examples"))
        try FileManager.default.createSymbolicLink(at: scratch.file("Fixtures"), withDestinationURL: Fixture.packageRoot.appendingPathComponent("Fixtures"))
        try FileManager.default.createSymbolicLink(at: scratch.file("Goldens"), withDestinationURL: Fixture.goldens.appendingPathComponent("documentation"))
        let previous = FileManager.default.currentDirectoryPath
        guard FileManager.default.changeCurrentDirectoryPath(scratch.url.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: scratch.url.path])
        }
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        try await body()
        return scratch
    }

    @Test func theReadmeSamplesRun() async throws {
        let scratch = try await Self.inSampleFolder {
            try await DocumentationSamples.readmeEdit()
            var composition = MutableComposition()
            let clip = try await Asset.load(from: URL(fileURLWithPath: "a.mov"))
            try composition.insertTimeRange(TimeRange(start: .zero, duration: clip.duration), of: clip, at: .zero)
            try await DocumentationSamples.readmeGolden(composition: composition)
        }
        defer { scratch.remove() }
        let output = try await Asset.load(from: scratch.file("out.mp4"))
        #expect(output.tracks(withMediaType: .video).first?.video?.frameCount == 240)
        #expect(output.tracks(withMediaType: .video).first?.naturalSize == Size(width: 640, height: 360))
        #expect(output.tracks(withMediaType: .audio).first?.timeRange.duration == MediaTime(seconds: 8))
        let frames = try await Readback.frames(of: scratch.file("out.mp4"), at: [.ms(1000), .ms(5000)])
        let patch = Rect(x: 144, y: 80, width: 32, height: 32)
        #expect(colorMatches(frames[0].meanColor(in: patch), (255, 0, 0), tolerance: 8))
        #expect(colorMatches(frames[1].meanColor(in: patch), (0, 0, 255), tolerance: 8), "clip B must be visible again")
    }

    /// The porting guide's track-editing sample adds a track holding the clip's range, with the clip's orientation.
    @Test func thePortingTrackSampleEditsOneTrack() async throws {
        let clip = try await Asset.load(from: Fixture.url("canonical/clipA.mp4"))
        let clipVideo = try #require(clip.tracks(withMediaType: .video).first)
        var composition = MutableComposition()
        let range = TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 2))
        let id = try DocumentationSamples.portingModifyTrack(composition: &composition, clipRange: range, clipVideo: clipVideo)
        #expect(id == 1)
        #expect(composition.track(withTrackID: id)?.timeRange == TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        #expect(composition.track(withTrackID: id)?.preferredTransform == clipVideo.preferredTransform)
    }

    /// The porting guide's Swift edit is the canonical edit: its export matches the export of
    /// `Examples/canonical-edit.json` (docs/README.md's sample) picture for picture — clip A, its fade, clip B visible,
    /// the watermark — and in duration.
    @Test func thePortingSampleIsTheCanonicalEdit() async throws {
        let scratch = try await Self.inSampleFolder {
            try await DocumentationSamples.portingCanonicalEdit()
            try await DocumentationSamples.documentExport()
        }
        defer { scratch.remove() }
        let swift = try await Asset.load(from: scratch.file("canonical-swift.mp4"))
        let json = try await Asset.load(from: scratch.file("canonical.mp4"))
        #expect(swift.tracks(withMediaType: .video).first?.video?.frameCount == 240)
        #expect(json.tracks(withMediaType: .video).first?.video?.frameCount == 240)
        #expect(swift.duration == json.duration)
        let times: [MediaTime] = [.ms(1000), .ms(3500), .ms(5000), .ms(7500)]
        let fromSwift = try await Readback.frames(of: scratch.file("canonical-swift.mp4"), at: times)
        let fromJSON = try await Readback.frames(of: scratch.file("canonical.mp4"), at: times)
        let patches = [Rect(x: 144, y: 80, width: 32, height: 32), Rect(x: 466, y: 298, width: 12, height: 12),
                       Rect(x: 300, y: 200, width: 40, height: 40)]
        for (index, time) in times.enumerated() {
            for patch in patches {
                let a = fromSwift[index].meanColor(in: patch), b = fromJSON[index].meanColor(in: patch)
                #expect(colorMatches(a, (b.red, b.green, b.blue), tolerance: 3), "at \(time) in \(patch): \(a) vs \(b)")
            }
        }
        // Clip B is visible at 5 s (blue key patch), not black.
        #expect(colorMatches(fromSwift[2].meanColor(in: patches[0]), (0, 0, 255), tolerance: 8))
    }

    /// The porting guide's custom compositor inverts the picture: clip A's red key patch comes out cyan.
    @Test func thePortingCompositorSampleInverts() async throws {
        let scratch = try ScratchDirectory("samples")
        defer { scratch.remove() }
        let clip = try await Asset.load(from: Fixture.url("canonical/clipA.mp4"))
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: clip, at: .zero)
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = scratch.file("inverted.mp4")
        DocumentationSamples.portingCustomCompositor(session: session)
        try await session.export()
        let frames = try await Readback.frames(of: scratch.file("inverted.mp4"), at: [.ms(500)])
        let patch = frames[0].meanColor(in: Rect(x: 144, y: 80, width: 32, height: 32))
        #expect(colorMatches(patch, (0, 255, 255), tolerance: 8), "the red patch inverted: \(patch)")
    }

    /// The porting guide's nesting sample inserts the pre-composed movie at 5 s, as long as the nested composition.
    @Test func thePortingNestingSampleInsertsThePrecomposedMovie() async throws {
        let clip = try await Asset.load(from: Fixture.url("canonical/clipA.mp4"))
        var titles = MutableComposition()
        try titles.insertTimeRange(TimeRange(start: .zero, duration: MediaTime(seconds: 1)), of: clip, at: .zero)
        var outer = MutableComposition()
        let precomposed = try await DocumentationSamples.portingNested(titles: titles, titlesVideo: nil, titlesMix: nil, outer: &outer)
        defer { try? FileManager.default.removeItem(at: precomposed.url) }
        #expect(precomposed.duration == MediaTime(seconds: 1))
        #expect(precomposed.tracks(withMediaType: .video).first?.codecName == "ffv1")
        #expect(outer.duration == MediaTime(seconds: 6))
        #expect(outer.tracks(withMediaType: .video).first?.segments.last?.timeMapping.target
                == TimeRange(start: MediaTime(seconds: 5), duration: MediaTime(seconds: 1)))
    }
}
