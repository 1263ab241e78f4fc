import Composition
import Export
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing
import VideoComposition

/// The colour fields of the short form: copied to the expanded video composition, printed by
/// `splice expand`, and checked like any other field.
@Suite("Short form colour")
struct ShortFormColourTests {
    @Test func colourFieldsAndBitDepthReachTheModels() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1, "renderSize": [320, 180],
              "colorPrimaries": "ITU_R_2020", "colorTransferFunction": "ITU_R_2100_HLG", "colorYCbCrMatrix": "ITU_R_2020",
              "clips": [ { "source": "clipA.mp4", "duration": "1s" } ],
              "export": { "settings": { "video": { "codec": "hevc", "bitDepth": 10 }, "audio": null } } }
            """)
        #expect(loaded.form == .short)
        let video = try #require(loaded.videoComposition)
        #expect(video.colorPrimaries == .itu2020)
        #expect(video.colorTransferFunction == .hlg)
        #expect(video.colorYCbCrMatrix == .itu2020)
        #expect(loaded.export.settings?.video?.bitDepth == 10)
        #expect(loaded.export.settings?.video?.codec == .hevc)
        // `splice expand` writes them into the full form, which loads back to the same models.
        let json = try loaded.expandedJSON()
        #expect(json.contains(#""colorTransferFunction": "ITU_R_2100_HLG""#))
        #expect(json.contains(#""bitDepth": 10"#))
    }

    @Test func leftOutFieldsStayUndecided() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1, "clips": [ { "source": "clipA.mp4", "duration": "1s" } ] }
            """)
        let video = try #require(loaded.videoComposition)
        #expect(video.colorPrimaries == nil && video.colorTransferFunction == nil && video.colorYCbCrMatrix == nil)
        let json = try loaded.expandedJSON()
        #expect(!json.contains("colorPrimaries") && !json.contains("colorTransferFunction") && !json.contains("colorYCbCrMatrix"))
    }

    @Test func aWrongValueIsAProblemAtItsPath() async throws {
        await #expect {
            _ = try await TestDocument.load("""
                { "version": 1, "colorTransferFunction": "HLG", "clips": [ { "source": "clipA.mp4", "duration": "1s" } ] }
                """)
        } throws: { error in
            "\(error)".contains("colorTransferFunction")
        }
    }
}
