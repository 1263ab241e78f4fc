import Composition
import Delivery
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing

/// A document's `export.package`: an adaptive-bitrate package asked for with the command line's names, its
/// problems at their place like every other field.
@Suite("Package documents")
struct PackageDocumentTests {
    @Test func aPackageIsReadWithTheCommandLinesNames() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
              "export": { "package": { "hls": "out/show", "dash": "out/./show", "ladder": ["360p:600k", "180p:200k:hevc"], "segmentDuration": "90f" } } }
            """)
        let package = try #require(loaded.export.package)
        #expect(package.ladder?.renditions == [.init(height: 360, bitRate: 600_000), .init(height: 180, bitRate: 200_000, codec: .hevc)])
        #expect(package.segmentDuration == MediaTime(value: 3, timescale: 1), "90 frames at the short form's 30 fps")
        #expect(loaded.packageFolder == loaded.url.deletingLastPathComponent().appendingPathComponent("out/show").standardizedFileURL)
        let packager = loaded.makePackager()
        #expect(packager.ladder.text == "360p:600k,180p:200k:hevc")
        #expect(packager.segmentDuration == MediaTime(seconds: 3))
        #expect(packager.manifestFormats == [.hls, .dash])
        #expect(!packager.overwritesExistingOutput)
        // `splice expand` writes the ladder back in the same syntax.
        #expect(try loaded.expandedJSON().contains(#""ladder": "360p:600k,180p:200k:hevc""#))
    }

    @Test func theLadderTextReadsAsOnTheCommandLine() throws {
        let ladder = try AdaptiveBitrateLadder(parsing: "1080p:5M,720:3000k, 480p:1.2M,720p:2M:hevc")
        #expect(ladder.renditions.map(\.height) == [1080, 720, 480, 720])
        #expect(ladder.renditions.map(\.bitRate) == [5_000_000, 3_000_000, 1_200_000, 2_000_000])
        #expect(ladder.renditions.map(\.codec) == [.h264, .h264, .h264, .hevc])
        #expect(throws: PackagingError.invalidRendition(index: 1, reason: "'720p' is not HEIGHT:RATE[:CODEC] (e.g. 720p:3M, 480:1200k, 720p:2M:hevc)")) {
            try AdaptiveBitrateLadder(parsing: "1080p:5M,720p")
        }
        #expect(throws: PackagingError.emptyLadder) { try AdaptiveBitrateLadder(parsing: " ") }
    }

    /// Each bad package field alone: its path, the line and column of its value, the message.
    @Test(arguments: [
        (#""package": { "hls": "a", "ladder": "361p:1M" }"#, "export.package.ladder", #""361p"#,
         "rendition 0 of the ladder: height 361 is not a positive even number of pixels"),
        (#""package": { "hls": "a", "ladder": "720p" }"#, "export.package.ladder", #""720p""#,
         "rendition 0 of the ladder: '720p' is not HEIGHT:RATE[:CODEC] (e.g. 720p:3M, 480:1200k, 720p:2M:hevc)"),
        (#""package": { "hls": "a", "dash": "b" }"#, "export.package.dash", #""b""#,
         "\"hls\" and \"dash\" share one package folder (the same segments): give the same folder to both"),
        (#""package": { "hls": "a", "segmentDuration": "0s" }"#, "export.package.segmentDuration", #""0s""#,
         "segment duration 0.000 s (0/1) is not a positive time"),
        (#""package": { "ladder": "720p:3M" }"#, "export.package", "{ \"ladder",
         "a package needs \"hls\" or \"dash\" (or both): the folder to write"),
        (#""package": { "hls": "a" }, "loudness": { "integratedLoudness": -16 }"#, "export.loudness", "{ \"integratedLoudness",
         "\"loudness\" shapes one exported file; a package (\"package\") has its own ladder and does not read it"),
        (#""preset": "1280x720", "package": { "dash": "a" }"#, "export.preset", #""1280x720""#,
         "\"preset\" shapes one exported file; a package (\"package\") has its own ladder and does not read it"),
    ])
    func badPackageFieldsAreProblemsAtTheirPlace(export: String, path: String, marker: String, message: String) async throws {
        let text = #"{ "version": 1, "clips": [ { "source": "clipA.mp4" } ], "export": { "# + export + " } }"
        let problems = try await TestDocument.problems(text)
        DocumentErrorTests.expectSingle(problems, path: path, line: 1, column: DocumentErrorTests.column(of: marker, in: text),
                                        message: message)
    }
}
