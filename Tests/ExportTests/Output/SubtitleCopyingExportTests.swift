import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// Subtitle tracks written by the exports that copy pictures (passthrough, smart rendering) and by the joins of
/// concurrent and segmented exports: the cues cut and moved exactly as the encoding path places them, read back by
/// the `ffmpeg` and `ffprobe` command-line tools.
@Suite struct SubtitleCopyingExportTests {
    /// Six cues around an empty range (1.0–1.5 s) and a cut (2.0–3.0 s) of ``edit(in:)``.
    static let srt = """
        1
        00:00:00,200 --> 00:00:01,200
        One

        2
        00:00:01,300 --> 00:00:01,600
        Half hidden

        3
        00:00:01,800 --> 00:00:02,400
        Across the cut

        4
        00:00:02,500 --> 00:00:02,900
        Cut away

        5
        00:00:02,950 --> 00:00:03,300
        After the cut

        6
        00:00:03,500 --> 00:00:03,900
        Last

        """

    /// The cues of ``edit(in:)`` as the `ffmpeg` CLI converts them to SubRip: cue 1 ends where the subtitle track's
    /// empty range starts (1.000), cue 2 starts where it ends (1.500), cue 3 ends at the cut (2.000), cue 4 is cut
    /// away, cues 5 and 6 move 1 s earlier, cue 5 from the cut's far side (3.000 → 2.000).
    static let expected = """
        1
        00:00:00,200 --> 00:00:01,000
        One

        2
        00:00:01,500 --> 00:00:01,600
        Half hidden

        3
        00:00:01,800 --> 00:00:02,000
        Across the cut

        4
        00:00:02,000 --> 00:00:02,300
        After the cut

        5
        00:00:02,500 --> 00:00:02,900
        Last


        """

    /// ``expected`` as mov_text samples, the gaps between cues included (empty samples), by ffprobe
    /// (``packetTimes(of:in:)``): start and duration in seconds.
    static let expectedSamples = [
        "0.000000,0.200000", "0.200000,0.800000", "1.000000,0.500000", "1.500000,0.100000", "1.600000,0.200000",
        "1.800000,0.200000", "2.000000,N/A", "2.000000,0.300000", "2.300000,0.200000", "2.500000,0.400000",
    ]

    /// 4 s of H.264 (1 s closed groups, B-frames) with the captions on a subtitle track that leaves 1.0–1.5 s empty,
    /// then the composition's 2.0–3.0 s removed (a cut on group boundaries, so every picture can be copied, and a
    /// ripple of the last second).
    static func edit(in scratch: ScratchDirectory) async throws -> MutableComposition {
        let source = try SmartRenderEdit.source(.h264, openGOP: false, seconds: 4, named: "clip.mov", in: scratch)
        let video = try #require(try await Asset.load(from: source).tracks(withMediaType: .video).first)
        let captions = try await Asset.load(from: try scratch.write("captions.srt", srt))
        var composition = MutableComposition()
        let picture = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(video.timeRange, of: video, at: .zero, intoTrackWithID: picture)
        let text = try composition.addMutableTrack(withMediaType: .subtitle)
        try composition.insertTimeRange(TimeRange(start: .zero, duration: .ms(1000)), of: captions.tracks[0], at: .zero,
                                        intoTrackWithID: text)
        try composition.insertTimeRange(TimeRange(start: .ms(1500), end: .ms(3900)), of: captions.tracks[0], at: .ms(1500),
                                        intoTrackWithID: text)
        try composition.removeTimeRange(TimeRange(start: .ms(2000), duration: .ms(1000)))
        return composition
    }

    /// Each subtitle packet's `pts_time,duration_time` as ffprobe prints them (seconds, 6 decimals).
    static func packetTimes(of url: URL, in scratch: ScratchDirectory) async throws -> [String]? {
        guard let ffprobe = Executable.required("ffprobe") else { return nil }
        let log = scratch.file("packets-\(UUID().uuidString).txt")
        let child = try ChildProcess(executable: ffprobe, arguments: [
            "-v", "error", "-select_streams", "s", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0",
            url.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 30))
        return try TextFile.read(log).split(separator: "\n").map(String.init)
    }

    @Test func passthroughAndSmartRenderingWriteTheEncodingPathsCues() async throws {
        let scratch = try ScratchDirectory("subtitle-copying")
        defer { scratch.remove() }
        let composition = try await Self.edit(in: scratch)

        let encoded = scratch.file("encoded.mp4")
        let ordinary = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: nil))
        ordinary.outputURL = encoded
        try await ordinary.export()

        let copied = scratch.file("copied.mp4")
        let passthrough = AssetExportSession(asset: composition, preset: .passthrough)
        passthrough.outputURL = copied
        try await passthrough.export()

        let smart = scratch.file("smart.mp4")
        let smartSession = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: nil))
        smartSession.outputURL = smart
        smartSession.smartRendering = true
        try await smartSession.export()
        let report = try #require(smartSession.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.copiedGroupCount == 3, "\(report)")

        let copiedMKV = scratch.file("copied.mkv")
        let matroska = AssetExportSession(asset: composition, preset: .passthrough)
        matroska.outputURL = copiedMKV
        try await matroska.export()

        guard let reference = try await SubtitleExportTests.cues(of: encoded),
              let referenceTimes = try await Self.packetTimes(of: encoded, in: scratch) else { return }
        #expect(reference == Self.expected)
        #expect(referenceTimes == Self.expectedSamples, "\(referenceTimes)")
        for url in [copied, smart, copiedMKV] {
            #expect(try await SubtitleExportTests.cues(of: url) == Self.expected, "\(url.lastPathComponent)")
            let streams = try await SubtitleExportTests.subtitleStreams(of: url) ?? ""
            #expect(streams.contains(url.pathExtension == "mkv" ? "codec_name=subrip" : "codec_name=mov_text"), "\(streams)")
            if url.pathExtension == "mp4" {
                #expect(try await Self.packetTimes(of: url, in: scratch) == referenceTimes, "\(url.lastPathComponent)")
            }
        }
        // The pictures were copied: the passthrough file holds the source's 90 pictures of the three kept seconds.
        let pictures = try #require(try await Asset.load(from: copied).tracks(withMediaType: .video).first)
        #expect(pictures.video?.frameCount == 90)
        #expect(pictures.timeRange.duration == MediaTime(seconds: 3))
    }

    /// The join of a concurrent export (two parts, cut at 1.5 s where cue 2 starts) and of a segmented export
    /// (three parts, MOV) writes the cues once over the whole range: the encoding path's times and text; the
    /// concurrent join writes the session's chapters too.
    @Test func concurrentAndSegmentedJoinsWriteTheCuesOnce() async throws {
        let scratch = try ScratchDirectory("subtitle-joins")
        defer { scratch.remove() }
        let composition = try await Self.edit(in: scratch)
        let settings = ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: nil)

        let concurrent = scratch.file("concurrent.mp4")
        let session = AssetExportSession(asset: composition, settings: settings)
        session.outputURL = concurrent
        session.concurrentSegments = 2
        session.chapterMetadataGroups = [
            TimedMetadataGroup(chapterTitled: "Start", timeRange: TimeRange(start: .zero, duration: .ms(1250))),
            TimedMetadataGroup(chapterTitled: "End", timeRange: TimeRange(start: .ms(1250), end: .ms(3000))),
        ]
        try await session.export()

        var segmented = SegmentedExport(composition: composition, videoComposition: nil, audioMix: nil, settings: settings)
        let parts = scratch.url.appendingPathComponent("parts", isDirectory: true)
        let plan = try segmented.makePlan(segmentCount: 3, fileType: .mov, documentPath: "/nonexistent/edit.json", partsDirectory: parts)
        #expect(plan.segments.map(\.frameCount) == [30, 30, 30])
        for segment in plan.segments { try await segmented.renderSegment(segment.index, of: plan) }
        let joined = scratch.file("joined.mov")
        segmented.chapterMetadataGroups = []
        try await segmented.join(plan, to: joined)

        guard let cues = try await SubtitleExportTests.cues(of: concurrent) else { return }
        #expect(cues == Self.expected)
        #expect(try await Self.packetTimes(of: concurrent, in: scratch) == Self.expectedSamples)
        #expect(try await SubtitleExportTests.cues(of: joined) == Self.expected)
        #expect(try await Self.packetTimes(of: joined, in: scratch) == Self.expectedSamples)
        let chapters = try await Asset.load(from: concurrent).chapterMetadataGroups
        #expect(chapters.map(\.timeRange) == [TimeRange(start: .zero, duration: .ms(1250)), TimeRange(start: .ms(1250), end: .ms(3000))])
        #expect(chapters.map(\.title) == ["Start", "End"])
        let pictures = try #require(try await Asset.load(from: joined).tracks(withMediaType: .video).first)
        #expect(pictures.video?.frameCount == 90)
    }
}
