import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// Smart rendering refuses a burn-in, which the pictures it copies would not show, before any file is written
/// (SubtitleCopyingExportTests checks the subtitle tracks every path writes).
@Suite struct SubtitleExportPathTests {
    /// A 2 s test picture with the two-cue sidecar of ``SubtitleExportTests/srt`` on composition track `textTrackID`.
    static func captionedEdit(in scratch: ScratchDirectory) async throws -> (MutableComposition, textTrackID: Int32) {
        let video = try await SyntheticMedia.makeAsset(video: .testPattern(), duration: .ms(2000), in: scratch.url, name: "clip")
        let captions = try await Asset.load(from: try scratch.write("captions.srt", SubtitleExportTests.srt))
        var composition = try MutableComposition(asset: video)
        let text = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(2000)), of: captions.tracks[0], at: .zero,
                                        intoTrackWithID: text)
        return (composition, text)
    }

    /// Smart rendering copies untouched pictures, which would not show a burnt-in subtitle track.
    @Test func smartRenderingRefusesABurnIn() async throws {
        let scratch = try ScratchDirectory("subtitle-paths")
        defer { scratch.remove() }
        let (composition, text) = try await Self.captionedEdit(in: scratch)
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        session.outputURL = scratch.file("out.mp4")
        session.smartRendering = true
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        videoComposition.subtitleBurnIn = SubtitleBurnIn(trackID: text)
        session.videoComposition = videoComposition
        await #expect(throws: ExportError.unsupportedSettings(
            "smartRendering copies untouched pictures, which would not show the burnt-in subtitle track \(text); "
                + "export without smartRendering")) { try await session.validate() }
    }
}
