import Foundation
import SpliceTestSupport
import Testing
import Splice

/// `splice export DOC -o out.webm` without codecs gives VP9 + Opus (it was refused: the defaults were H.264 + AAC).
@Suite("webm from the command line")
struct WebMExportTests {
    @Test func webmOutputPicksCodecsItCanHold() async throws {
        let scratch = try TestDocument.folder()
        defer { scratch.remove() }
        try scratch.write("edit.json", """
            { "version": 1, "renderSize": [160, 90], "clips": [ { "source": "clipA.mp4", "duration": "1s" } ] }
            """)
        let validated = try await SpliceTool.run(["validate", "edit.json", "-o", "out.webm"], in: scratch.url)
        #expect(validated.status == 0, "\(validated.stderr)")
        let run = try await SpliceTool.run(["export", "edit.json", "-o", "out.webm", "--progress", "none"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let asset = try await Asset.load(from: scratch.file("out.webm"))
        #expect(asset.tracks(withMediaType: .video).first?.codecName == "vp9")
        #expect(asset.tracks(withMediaType: .audio).first?.codecName == "opus")
        #expect(asset.tracks(withMediaType: .video).first?.video?.frameCount == 30)
    }
}
