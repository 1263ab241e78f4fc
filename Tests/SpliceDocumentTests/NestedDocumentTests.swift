import Composition
import Export
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing

/// Documents that name other documents as sources: nested compositions, pre-composed; cycles refused.
@Suite("Nested documents")
struct NestedDocumentTests {
    @Test func aDocumentNamedAsASourceIsPrecomposedWithItsOwnTiming() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("inner.json", """
            { "version": 1, "renderSize": [320, 240], "clips": [ { "source": "clipA.mp4", "duration": "1s", "fadeOut": "0.5s" } ] }
            """)
        let outer = try scratch.write("outer.json", """
            { "version": 1, "renderSize": [320, 240],
              "clips": [ { "source": "inner.json", "start": "0.5s" }, { "source": "clipB.mp4", "duration": "0.5s" } ] }
            """)
        let intermediates = scratch.file("intermediates")
        try FileManager.default.createDirectory(at: intermediates, withIntermediateDirectories: true)
        let loaded = try await CompositionDocument.load(
            from: outer, assetLoader: CompositionDocument.nestingAssetLoader(intermediatesIn: intermediates, enclosing: [outer]))
        // The inner document lasts 1 s; the outer clip plays its last 0.5 s, then 0.5 s of clipB.
        #expect(loaded.composition.duration == .s(1))
        let files = try FileManager.default.contentsOfDirectory(atPath: intermediates.path)
        #expect(files.count == 1 && files.first?.hasPrefix("splice-nested-") == true, "\(files)")
        let nested = try #require(loaded.assets["inner.json"])
        #expect(nested.duration == .s(1))
        #expect(nested.tracks(withMediaType: .video).first?.codecName == "ffv1")
        #expect(nested.tracks(withMediaType: .video).first?.video?.naturalSize == Size(width: 320, height: 240))
    }

    @Test func documentsThatNameEachOtherInACycleAreRefusedWithTheChain() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let a = try scratch.write("a.json", """
            { "version": 1, "clips": [ { "source": "b.json" } ] }
            """)
        try scratch.write("b.json", """
            { "version": 1, "clips": [ { "source": "clipA.mp4", "duration": "1s" }, { "source": "a.json" } ] }
            """)
        let intermediates = scratch.file("intermediates")
        try FileManager.default.createDirectory(at: intermediates, withIntermediateDirectories: true)
        do {
            _ = try await CompositionDocument.load(
                from: a, assetLoader: CompositionDocument.nestingAssetLoader(intermediatesIn: intermediates, enclosing: [a]))
            Issue.record("the cycle was loaded")
        } catch let error as DocumentError {
            let text = "\(error)"
            #expect(text.contains("a.json → b.json → a.json"), "\(text)")
            #expect(error.problems.first?.path.description == "clips[0].source", "\(text)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: intermediates.path).isEmpty, "nothing was rendered")
    }

    @Test func theLoaderThrowsTheTypedCycleError() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        let a = try scratch.write("self.json", #"{ "version": 1, "clips": [ { "source": "self.json" } ] }"#)
        let loader = CompositionDocument.nestingAssetLoader(intermediatesIn: scratch.url, enclosing: [a])
        await #expect(throws: NestedCompositionError.cycle([a.resolvingSymlinksInPath(), a.resolvingSymlinksInPath()])) {
            _ = try await loader(a)
        }
    }
}
