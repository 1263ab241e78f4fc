import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// The stream tags every export path writes: the encoding export, passthrough, smart rendering and the joins of
/// concurrent and segmented exports tag their streams by the one planner rule (a composition track's `metadata` and
/// `languageCode` over its first source track's handler name and language), read back by ffprobe and exiftool.
@Suite struct TrackMetadataExportPathTests {
    /// 2 s of H.264 (1 s closed groups, B-frames) and 48 kHz PCM in a MOV whose video track has the handler name
    /// "Camera A" and the language `eng`: the tags the composition's video stream carries from its source.
    static func source(in scratch: ScratchDirectory) async throws -> Asset? {
        guard Executable.required("ffmpeg") != nil else { return nil }
        let plain = try SmartRenderEdit.source(
            .h264, openGOP: false, seconds: 2, audio: "sine=f=440:r=48000", named: "plain.mov", in: scratch)
        let url = scratch.file("source.mov")
        let made = try await MediaToolRun.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", plain.path, "-c", "copy", "-metadata:s:v:0", "handler_name=Camera A",
            "-metadata:s:v:0", "language=eng", url.path,
        ])
        #expect(made.isEmpty, "\(made)")
        return try await Asset.load(from: url)
    }

    /// The source whole, its video track titled "Main", its audio track in French (`fra`, over the source's none)
    /// with the handler name "Commentary".
    static func composition(of source: Asset) throws -> MutableComposition {
        var composition = try MutableComposition(asset: source)
        let videoID = try #require(composition.tracks(withMediaType: .video).first?.trackID)
        let audioID = try #require(composition.tracks(withMediaType: .audio).first?.trackID)
        try composition.modifyTrack(withID: videoID) { $0.metadata = [MetadataItem(key: "title", value: "Main")] }
        try composition.modifyTrack(withID: audioID) {
            $0.languageCode = "fra"
            $0.metadata = [MetadataItem(key: "handler_name", value: "Commentary")]
        }
        return composition
    }

    @Test func everyExportPathWritesTheSameStreamTags() async throws {
        let scratch = try ScratchDirectory("track-metadata-paths")
        defer { scratch.remove() }
        guard let source = try await Self.source(in: scratch) else { return }
        let composition = try Self.composition(of: source)
        let settings = ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: AudioSettings())

        let encoded = scratch.file("encoded.mov")
        let ordinary = AssetExportSession(asset: composition, settings: settings)
        ordinary.outputURL = encoded
        try await ordinary.export()

        let copied = scratch.file("copied.mov")
        let passthrough = AssetExportSession(asset: composition, preset: .passthrough)
        passthrough.outputURL = copied
        try await passthrough.export()

        let smart = scratch.file("smart.mov")
        let smartSession = AssetExportSession(asset: composition, settings: settings)
        smartSession.outputURL = smart
        smartSession.smartRendering = true
        try await smartSession.export()
        let report = try #require(smartSession.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")

        let joined = scratch.file("segments.mov")
        let segmented = AssetExportSession(asset: composition, settings: settings)
        segmented.outputURL = joined
        segmented.concurrentSegments = 2
        try await segmented.export()

        // The steps `splice plan`, `render-segment` and `join` run.
        let planned = scratch.file("planned.mov")
        let steps = SegmentedExport(composition: composition, videoComposition: nil, audioMix: nil, settings: settings)
        let plan = try steps.makePlan(segmentCount: 2, fileType: .mov, documentPath: scratch.file("edit.json").path,
                                      partsDirectory: scratch.file("parts"))
        for segment in plan.segments { try await steps.renderSegment(segment.index, of: plan) }
        try await steps.join(plan, to: planned)

        // Every tag ffprobe shows, the same in all five files (`vendor_id` is the mov muxer's own).
        let expected: [[String: String]] = [
            ["handler_name": "Camera A", "language": "eng", "vendor_id": "FFMP"],
            ["handler_name": "Commentary", "language": "fra", "vendor_id": "[0][0][0][0]"],
        ]
        for url in [encoded, copied, smart, joined, planned] {
            guard let probed = try await MetadataReadBack.ffprobeStreamTags(of: url) else { return }
            #expect(probed == expected, "\(url.lastPathComponent)")
            // FFmpeg 5.1's mov demuxer does not read a track's user data name back; exiftool does.
            if let exif = try await MetadataReadBack.exiftoolTags(of: url) {
                #expect(exif["Track1:Track1Name"] == "Main", "\(url.lastPathComponent): \(exif)")
                #expect(exif["Track2:Track2Name"] == nil, "\(url.lastPathComponent): \(exif)")
            }
        }
    }
}
