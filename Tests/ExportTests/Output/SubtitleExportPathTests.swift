import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// The export paths that join pictures and sound only (concurrent and segmented exports) refuse a composition with
/// subtitle tracks, naming the tracks, before any file is written; smart rendering refuses a burn-in.
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

    @Test func concurrentSegmentsRefuseSubtitleTracks() async throws {
        let scratch = try ScratchDirectory("subtitle-paths")
        defer { scratch.remove() }
        let (composition, text) = try await Self.captionedEdit(in: scratch)
        let session = AssetExportSession(asset: composition, preset: .preset640x480)
        let url = scratch.file("out.mkv")
        session.outputURL = url
        session.concurrentSegments = 2
        let expected = "concurrentSegments 2 joins parts of pictures and sound only, and would leave out subtitle track \(text); "
            + "set concurrentSegments to 1 or nil, or disable the subtitle tracks (isEnabled = false)"
        await #expect(throws: ExportError.unsupportedSettings(expected)) { try await session.validate() }
        await #expect(throws: ExportError.unsupportedSettings(expected)) { try await session.export() }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(scratch.contents.filter { $0.hasPrefix("out") || $0.hasPrefix(".out") }.isEmpty, "\(scratch.contents)")

        // The same edit with its subtitle track disabled is written, without subtitles.
        var silent = composition
        try silent.updateTrack(withTrackID: text) { $0.isEnabled = false }
        let again = AssetExportSession(asset: silent, preset: .preset640x480)
        again.outputURL = url
        again.concurrentSegments = 2
        try await again.validate()
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

    @Test func aSegmentedExportPlanRefusesSubtitleTracks() async throws {
        let scratch = try ScratchDirectory("subtitle-segments")
        defer { scratch.remove() }
        let (composition, text) = try await Self.captionedEdit(in: scratch)
        let export = SegmentedExport(composition: composition, videoComposition: nil, audioMix: nil,
                                     settings: ExportSettings(video: VideoSettings(codec: .ffv1), audio: nil))
        let parts = scratch.url.appendingPathComponent("parts", isDirectory: true)
        #expect(throws: SegmentError.invalidPlan(
            "the parts are joined as pictures and sound only, and subtitle track \(text) would be left out; disable the "
                + "subtitle tracks (isEnabled = false) or export in one piece")) {
            try export.makePlan(segmentCount: 2, fileType: .mkv, documentPath: "/nonexistent/edit.json", partsDirectory: parts)
        }
    }
}
