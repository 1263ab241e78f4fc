import Foundation
import Testing
import Splice
import SpliceTesting
import SpliceTestSupport

/// A recording's timed metadata track carried through a composition's cuts in every export path: the groups are
/// clipped, moved and scaled with the segments (the rule subtitle cues follow), written as the output's timed
/// metadata track, and read back with exact times by the loader and by ffprobe.
@Suite struct ComposedTimedMetadataTests {
    static func location(_ text: String) -> MetadataItem { MetadataItem(key: "com.apple.quicktime.location.ISO6709", value: text) }
    static let a = [location("+48.8584+002.2945/")]
    static let b = [location("+48.8606+002.3376/"), MetadataItem(key: "note", value: "bridge=2")]
    static let c = [location("+48.8530+002.3499/")]
    static func range(_ start: Int64, _ end: Int64) -> TimeRange { TimeRange(start: .ms(start), end: .ms(end)) }

    /// 6 s of H.264 at 30 fps (a key frame every second, no B-frames, tagged BT.709 so smart rendering can copy it;
    /// `ffmpeg`), copied by `AssetWriter` beside a timed metadata track written through its metadata adaptor:
    /// location A over 0–2 s, B over 2–4 s, C over 4–6 s. Nil (one line says so) without the `ffmpeg` tool.
    static func source(in scratch: ScratchDirectory) async throws -> Asset? {
        guard let ffmpeg = FFmpegCommandLine.path else { return nil }
        let plain = scratch.file("plain.mp4")
        let log = scratch.file("ffmpeg.txt")
        let child = try ChildProcess(executable: ffmpeg, arguments: [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=6",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-bf", "0", "-pix_fmt", "yuv420p",
            "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv", plain.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60))
        #expect(child.exitCode == 0, "\(TextFile.text(of: log))")
        let groups = [(a, 0), (b, 2000), (c, 4000)].map { TimedMetadataGroup(timeRange: range($0.1, $0.1 + 2000), items: $0.0) }
        return try await TimedMetadataRecording.write(scratch.file("walk.mp4"), copying: Asset.load(from: plain), groups: groups)
    }

    /// The source's 1–5 s, then its 0–1 s appended.
    static func cutComposition(of asset: Asset) throws -> MutableComposition {
        var composition = MutableComposition()
        try composition.insertTimeRange(range(1000, 5000), of: asset, at: .zero)
        try composition.insertTimeRange(range(0, 1000), of: asset, at: .invalid)
        return composition
    }

    /// A's last second, B, C's first second, then A's first second.
    static let cutGroups = [
        TimedMetadataGroup(timeRange: range(0, 1000), items: a), TimedMetadataGroup(timeRange: range(1000, 3000), items: b),
        TimedMetadataGroup(timeRange: range(3000, 4000), items: c), TimedMetadataGroup(timeRange: range(4000, 5000), items: a),
    ]

    /// ffprobe's `pts_time,duration_time` of each sample of the first timed-text stream with text (FFmpeg's muxer adds
    /// an empty, zero-length sample where each later sample starts: the text track's "nothing shown").
    static func sampleTimes(of url: URL) async throws -> [String] {
        let text = try await MediaToolRun.run("ffprobe", [
            "-v", "error", "-select_streams", "s:0", "-show_entries", "packet=pts_time,duration_time,size", "-of", "csv=p=0", url.path,
        ])
        return text.split(separator: "\n").map(String.init)
    }

    static let cutSampleTimes = [
        "0.000000,1.000000,57", "1.000000,N/A,2", "1.000000,2.000000,73", "3.000000,N/A,2", "3.000000,1.000000,57",
        "4.000000,N/A,2", "4.000000,1.000000,57",
    ]

    static func expectCut(_ url: URL, _ label: String) async throws {
        let asset = try await Asset.load(from: url)
        #expect(asset.tracks(withMediaType: .metadata).count == 1, "\(label): \(asset.tracks.map(\.mediaType))")
        #expect(asset.tracks(withMediaType: .metadata).first?.timeRange == range(0, 5000), "\(label)")
        let groups = try await Asset.loadTimedMetadataGroups(from: url)
        #expect(groups == cutGroups, "\(label): \(groups)")
        guard Executable.required("ffprobe") != nil else { return }
        let times = try await sampleTimes(of: url)
        #expect(times == cutSampleTimes, "\(label): \(times)")
    }

    @Test func theCutKeepsEachGroupWhereItsPicturesGoInEveryExportPath() async throws {
        let scratch = try ScratchDirectory("composed-timed-metadata")
        defer { scratch.remove() }
        guard let asset = try await Self.source(in: scratch) else { return }
        #expect(asset.tracks.map(\.mediaType) == [.video, .metadata])
        let composition = try Self.cutComposition(of: asset)
        #expect(composition.tracks.map(\.mediaType) == [.video, .metadata])
        let settings = ExportSettings(video: VideoSettings(encoderPreset: "ultrafast"), audio: nil)

        let encoded = scratch.file("encoded.mp4")
        let session = AssetExportSession(asset: composition, settings: settings)
        session.outputURL = encoded
        try await session.export()
        try await Self.expectCut(encoded, "encoded")

        let copied = scratch.file("copied.mov")
        let passthrough = AssetExportSession(asset: composition, preset: .passthrough)
        passthrough.outputURL = copied
        try await passthrough.export()
        try await Self.expectCut(copied, "passthrough")

        let smart = scratch.file("smart.mp4")
        let smartSession = AssetExportSession(asset: composition, settings: settings)
        smartSession.outputURL = smart
        smartSession.smartRendering = true
        try await smartSession.export()
        #expect(smartSession.smartRenderReport?.copiedFrameCount == 150,
                "every picture copied: the cuts are on key frames; \(smartSession.smartRenderReport?.description ?? "no report")")
        try await Self.expectCut(smart, "smart rendering")

        let joined = scratch.file("joined.mp4")
        let segments = AssetExportSession(asset: composition, settings: settings)
        segments.outputURL = joined
        segments.concurrentSegments = 2
        try await segments.export()
        try await Self.expectCut(joined, "2 segments")
    }

    /// An empty range moves the later groups; `scaleTimeRange` scales C with its pictures; a group cut away by the
    /// export's `timeRange` is clipped to it; Matroska, which holds no timed metadata track, leaves it out.
    @Test func emptyRangesAndSpeedChangesMoveAndScaleTheGroups() async throws {
        let scratch = try ScratchDirectory("composed-timed-metadata-scaled")
        defer { scratch.remove() }
        guard let asset = try await Self.source(in: scratch) else { return }
        var composition = try MutableComposition(asset: asset)
        try composition.insertEmptyTimeRange(Self.range(2000, 2500))  // B and C 0.5 s later
        try composition.scaleTimeRange(Self.range(4500, 6500), toDuration: .ms(4000))  // C at half speed: 4.5–8.5 s
        let url = scratch.file("scaled.mp4")
        let session = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "ultrafast"), audio: nil))
        session.outputURL = url
        session.timeRange = Self.range(500, 8500)
        try await session.export()
        let groups = try await Asset.loadTimedMetadataGroups(from: url)
        #expect(groups == [
            TimedMetadataGroup(timeRange: Self.range(0, 1500), items: Self.a), TimedMetadataGroup(timeRange: Self.range(2000, 4000), items: Self.b),
            TimedMetadataGroup(timeRange: Self.range(4000, 8000), items: Self.c),
        ], "\(groups)")

        let matroska = scratch.file("scaled.mkv")
        let left = AssetExportSession(asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "ultrafast"), audio: nil))
        left.outputURL = matroska
        left.timeRange = Self.range(0, 1000)
        try await left.export()
        #expect(try await Asset.load(from: matroska).tracks.map(\.mediaType) == [.video])
    }

    /// Groups set on the session win over the composition's metadata track (one timed metadata track, the session's),
    /// in a passthrough export as in any other, and in a `SegmentedExport`'s join.
    @Test func theSessionsGroupsReplaceTheComposedTrack() async throws {
        let scratch = try ScratchDirectory("composed-timed-metadata-session")
        defer { scratch.remove() }
        guard let asset = try await Self.source(in: scratch) else { return }
        let url = scratch.file("own.mp4")
        let session = AssetExportSession(asset: try Self.cutComposition(of: asset), preset: .passthrough)
        session.outputURL = url
        let own = [TimedMetadataGroup(timeRange: Self.range(500, 2500), items: [MetadataItem(key: "note", value: "mine")])]
        session.timedMetadataGroups = own
        try await session.export()
        #expect(try await Asset.load(from: url).tracks(withMediaType: .metadata).count == 1)
        #expect(try await Asset.loadTimedMetadataGroups(from: url) == own)

        // A segmented export's join writes the composed track, or its own groups in its place.
        var segmented = SegmentedExport(composition: try Self.cutComposition(of: asset), videoComposition: nil, audioMix: nil,
                                        settings: ExportSettings(video: VideoSettings(encoderPreset: "ultrafast"), audio: nil))
        let plan = try segmented.makePlan(segmentCount: 2, fileType: .mp4, documentPath: scratch.file("edit.json").path,
                                          partsDirectory: scratch.file("parts"))
        for segment in plan.segments { #expect(try await segmented.renderSegment(segment.index, of: plan)) }
        let joined = scratch.file("joined.mp4")
        try await segmented.join(plan, to: joined)
        #expect(try await Asset.loadTimedMetadataGroups(from: joined) == Self.cutGroups)
        segmented.timedMetadataGroups = own
        try await segmented.join(plan, to: joined, overwrite: true)
        #expect(try await Asset.load(from: joined).tracks(withMediaType: .metadata).count == 1)
        #expect(try await Asset.loadTimedMetadataGroups(from: joined) == own)
    }

    /// A `Timed Metadata` text track whose sample is not `key=value` text (subtitles given the handler by `ffmpeg`):
    /// the loader and the group reader refuse the file, naming the track and the sample's time.
    @Test func aMalformedSampleIsRefusedWithItsTrackAndTime() async throws {
        let scratch = try ScratchDirectory("timed-metadata-malformed")
        defer { scratch.remove() }
        guard let ffmpeg = FFmpegCommandLine.path else { return }
        let subtitles = try scratch.write("text.srt", "1\n00:00:00,500 --> 00:00:01,000\nno equals sign\n")
        let url = scratch.file("malformed.mp4")
        let log = scratch.file("ffmpeg.txt")
        let child = try ChildProcess(executable: ffmpeg, arguments: [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=1", "-i", subtitles.path,
            "-c:v", "libx264", "-preset", "ultrafast", "-c:s", "mov_text", "-metadata:s:s:0", "handler_name=Timed Metadata", url.path,
        ], standardOutput: log, standardError: log)
        defer { child.stop() }
        #expect(await child.wait(seconds: 60))
        #expect(child.exitCode == 0, "\(TextFile.text(of: log))")
        let reason = "track 2's sample at 0.500 s is not a timed metadata sample (a 16-bit length, then UTF-8 key=value lines)"
        await #expect(throws: AssetLoadingError.corruptOrTruncated(url, reason: reason)) { _ = try await Asset.load(from: url) }
        await #expect(throws: ExportError.sourceUnreadable(url, reason: reason)) { _ = try await Asset.loadTimedMetadataGroups(from: url) }
    }
}
