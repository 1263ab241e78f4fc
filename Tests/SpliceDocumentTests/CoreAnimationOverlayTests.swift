import Composition
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing
import VideoComposition

/// A short-form overlay placed with Core Animation's geometry (`"layer"`), as the tutorial's watermark layer is.
/// clipA is 640 × 360.
@Suite("Documents: overlays placed by Core Animation geometry")
struct CoreAnimationOverlayTests {
    @Test func theLayerPositionHasItsOriginBottomLeft() async throws {
        let loaded = try await TestDocument.load("""
            { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
              "overlays": [
                { "image": "watermark.png", "layer": { "position": { "x": 320, "y": 90 }, "bounds": { "x": 0, "y": 0, "width": 160, "height": 48 } } },
                { "text": "©", "layer": { "position": { "x": 8, "y": 8 }, "bounds": { "x": 0, "y": 0, "width": 100, "height": 40 },
                                          "anchorPoint": { "x": 0, "y": 0 } } }
              ] }
            """)
        let overlays = try #require(loaded.videoComposition?.overlays)
        #expect(overlays.map(\.frame) == [
            Rect(x: 240, y: 360 - 90 - 24, width: 160, height: 48),  // centre at 3/4 of the height from the top
            Rect(x: 8, y: 360 - 8 - 40, width: 100, height: 40),  // bottom-left corner 8 px from the canvas's
        ])
    }

    @Test func aLayerTakesNoOtherPlacement() async throws {
        let problems = try await TestDocument.problems("""
            { "version": 1, "clips": [ { "source": "clipA.mp4" } ],
              "overlays": [ { "image": "watermark.png", "position": "top", "margin": 4,
                              "layer": { "position": { "x": 1, "y": 1 }, "bounds": { "x": 0, "y": 0, "width": 10, "height": 10 } } } ] }
            """)
        #expect(problems.map(\.path.description) == ["overlays[0].position", "overlays[0].margin"])
        #expect(problems.first?.message == "an overlay placed by \"layer\" (Core Animation geometry) takes no \"position\"")
    }
}

/// `addMutableTrack(preferredTrackID: 0)` picks an ID (AVFoundation's kCMPersistentTrackID_Invalid), but a document
/// names each track by its ID, so a document's track 0 stays a problem at its path.
@Suite("Documents: track IDs")
struct DocumentTrackIDTests {
    @Test func aDocumentTrackIDOfZeroIsAProblem() async throws {
        let problems = try await TestDocument.problems("""
            { "version": 1, "composition": { "tracks": [
                { "trackID": 0, "mediaType": "video", "segments": [ { "source": "clipA.mp4", "track": "video", "at": "0s" } ] } ] } }
            """)
        #expect(problems.first?.path.description == "composition.tracks[0].trackID", "\(problems)")
        #expect(problems.first?.message == "\(CompositionError.invalidTrackID(0))")
    }
}
