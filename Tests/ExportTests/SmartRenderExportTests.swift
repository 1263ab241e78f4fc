import SpliceFFmpeg
import Foundation
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// Smart rendering on real files: the groups of pictures read from synthetic H.264 (closed and open GOPs, B-frames,
/// made in-process with libx264) and from phone footage, the plan for three cuts and a title over the middle piece,
/// and an export with the setting on.
@Suite("Smart rendering: sources and plans")
struct SmartRenderExportTests {
    static let frame = MediaTime(value: 1, timescale: 30)

    /// 12 s of 320 × 240 at 30 fps, one key frame a second, three B-frames; closed or open GOPs.
    static func source(openGOP: Bool, in scratch: ScratchDirectory) throws -> URL {
        let url = scratch.file(openGOP ? "open.mov" : "closed.mov")
        try SyntheticMedia.write(
            video: "testsrc2=s=320x240:r=30", audio: nil, duration: MediaTime(seconds: 12), pixelFormat: .yuv420p,
            videoCodec: .h264(x264Parameters: "keyint=30:min-keyint=30:scenecut=0:bframes=3:b-pyramid=normal:open-gop=\(openGOP ? 1 : 0)"),
            to: url)
        return url
    }

    /// Pieces of `track` (source ranges in seconds) back to back, with a text title over output `title`.
    static func session(
        _ track: AssetTrack, pieces: [(Double, Double)], title: TimeRange?, output: URL
    ) throws -> AssetExportSession {
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)
        var at = MediaTime.zero
        for (from, to) in pieces {
            let range = TimeRange(start: MediaTime(seconds: from, preferredTimescale: 30), end: MediaTime(seconds: to, preferredTimescale: 30))
            try composition.insertTimeRange(range, of: track, at: at, intoTrackWithID: id)
            at = at + range.duration
        }
        var video = MutableVideoComposition(propertiesOf: composition)
        if let title {
            video.overlays = [OverlayLayer(
                content: .text(TextLayerContent(string: "Title", fontSize: 24)),
                frame: Rect(x: 10, y: 10, width: 200, height: 40), timeRange: title)]
        }
        let session = AssetExportSession(
            asset: composition, settings: ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: nil))
        session.outputURL = output
        session.videoComposition = video
        session.smartRendering = true
        return session
    }

    static func report(of session: AssetExportSession) throws -> SmartRenderReport {
        try #require(try session.makePlan().smartRenderReport(cancellation: CancellationFlag()))
    }

    static func summary(_ report: SmartRenderReport) -> [String] { SmartRenderPlannerTests.summary(report.spans) }

    @Test func closedGroupsWithBFramesAreReadAsIDRGroups() async throws {
        let scratch = try ScratchDirectory("smart-closed")
        defer { scratch.remove() }
        let track = try #require(try await Asset.load(from: try Self.source(openGOP: false, in: scratch)).tracks(withMediaType: .video).first)
        let facts = try #require(try GroupOfPicturesScan.scan(track, cancellation: CancellationFlag()))
        #expect(facts.groups.count == 12)
        #expect(facts.groups.allSatisfy { $0.isClosed && $0.frameCount == 30 })
        #expect(facts.groups.map(\.keyFrameTime) == (0..<12).map { MediaTime(seconds: Int64($0)) })
        #expect(facts.groups.last?.end == MediaTime(seconds: 12))
    }

    @Test func openGroupsAreReadWithTheirLeadingPictures() async throws {
        let scratch = try ScratchDirectory("smart-open")
        defer { scratch.remove() }
        let track = try #require(try await Asset.load(from: try Self.source(openGOP: true, in: scratch)).tracks(withMediaType: .video).first)
        let facts = try #require(try GroupOfPicturesScan.scan(track, cancellation: CancellationFlag()))
        #expect(facts.groups.first?.isClosed == true)
        let later = facts.groups.dropFirst()
        #expect(!later.isEmpty && later.allSatisfy { !$0.startsWithIDR }, "\(facts.groups)")
        #expect(later.contains { $0.start < $0.keyFrameTime }, "\(facts.groups)")
        #expect(facts.groups.reduce(0) { $0 + $1.frameCount } == 360)
        // The groups tile the stream in presentation order.
        #expect(zip(facts.groups, facts.groups.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    /// Three pieces (two cuts inside groups, one on a group boundary) and a 2 s title over the middle piece: the
    /// whole IDR groups outside the title are copied (7, as predicted from the 1 s groups), the rest re-encoded with
    /// its reason; the export writes the spans as planned and the file has exactly the composition's frames
    /// (SmartRenderWriterTests checks the pictures).
    @Test func threeCutsAndATitleOnClosedGOPs() async throws {
        let scratch = try ScratchDirectory("smart-edit")
        defer { scratch.remove() }
        let track = try #require(try await Asset.load(from: try Self.source(openGOP: false, in: scratch)).tracks(withMediaType: .video).first)
        let title = TimeRange(start: MediaTime(seconds: 3.5, preferredTimescale: 30), duration: MediaTime(seconds: 2))
        let output = scratch.file("edit.mp4")
        let session = try Self.session(track, pieces: [(0.5, 3), (4, 9), (9.5, 12)], title: title, output: output)
        let report = try Self.report(of: session)
        #expect(Self.summary(report) == [
            "re-encode 0.0–0.5 s: partial group of pictures at the cut at 0.000 s",
            "copy 0.5–2.5 s ×2",
            "copy 2.5–3.5 s ×1",
            "re-encode 3.5–5.5 s: overlay from 3.500 s to 5.500 s",
            "copy 5.5–7.5 s ×2",
            "re-encode 7.5–8.0 s: partial group of pictures at the cut at 7.500 s",
            "copy 8.0–10.0 s ×2",
        ])
        #expect(report.copiedGroupCount == 7)
        #expect(report.spans.reduce(0) { $0 + $1.frameCount } == 300)

        try await session.export()
        let written = try #require(session.smartRenderReport)
        #expect(written.spans == report.spans)
        #expect(written.fallback == nil, "\(written)")
        let exported = try #require(try await Asset.load(from: output).tracks(withMediaType: .video).first)
        #expect(exported.video?.frameCount == 300)
        #expect(exported.timeRange.duration == MediaTime(seconds: 10))
        if let errors = try await FFmpegCommandLine.decodingErrors(of: output) { #expect(errors.isEmpty, "\(errors)") }
    }

    /// The same edit on open GOPs: only the first group (the one IDR picture) can start a copy.
    @Test func openGOPsAreCopiedOnlyFromAnIDRPicture() async throws {
        let scratch = try ScratchDirectory("smart-open-edit")
        defer { scratch.remove() }
        let track = try #require(try await Asset.load(from: try Self.source(openGOP: true, in: scratch)).tracks(withMediaType: .video).first)
        let session = try Self.session(track, pieces: [(0, 3), (4, 9), (9.5, 12)], title: nil, output: scratch.file("open.mp4"))
        let report = try Self.report(of: session)
        #expect(report.spans.first?.action == .copy)
        #expect(report.spans.first?.timeRange.start == .zero)
        #expect(report.spans.dropFirst().allSatisfy { $0.action == .reencode })
        #expect(report.spans.contains { $0.reason.map { "\($0)" }?.hasPrefix("open GOP at") == true })
    }

    /// Phone footage M09 (1080p30, IDR key frames at 0, 2 and 3 s, untagged HD): three pieces, a title over the
    /// middle one's first half second; the groups at 2 s and 3 s are copied (46 frames).
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func realFootageCopiesItsWholeGroups() async throws {
        let scratch = try ScratchDirectory("smart-m09")
        defer { scratch.remove() }
        let asset = try await Asset.load(from: Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4"))
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let title = TimeRange(start: MediaTime(seconds: 0.5, preferredTimescale: 30), duration: MediaTime(seconds: 0.5, preferredTimescale: 30))
        let end = track.timeRange.end.seconds
        let session = try Self.session(track, pieces: [(0, 0.5), (1, 3), (3, end)], title: title, output: scratch.file("m09.mp4"))
        let report = try Self.report(of: session)
        // The middle and last pieces are contiguous in the source: one segment, one copied span of two groups.
        #expect(Self.summary(report) == [
            "re-encode 0.0–0.5 s: partial group of pictures at the cut at 0.500 s",
            "re-encode 0.5–1.0 s: overlay from 0.500 s to 1.000 s",
            "re-encode 1.0–1.5 s: partial group of pictures at the cut at 1.000 s",
            "copy 1.5–\(MediaTime(value: 91, timescale: 30).seconds) s ×2",
        ], "\(report)")
        #expect(report.spans.last?.frameCount == 46)
    }

    /// Phone footage M01 is shown rotated (a −90° display matrix): nothing can be copied, with the reason.
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func rotatedFootageIsReencodedWithTheReason() async throws {
        let scratch = try ScratchDirectory("smart-m01")
        defer { scratch.remove() }
        let asset = try await Asset.load(from: Fixture.sharedMedia("M01_iphone4s_rot-90_ts600_aac-mono44k.mov"))
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let session = try Self.session(track, pieces: [(0, 2)], title: nil, output: scratch.file("m01.mp4"))
        let report = try Self.report(of: session)
        #expect(Self.summary(report) == ["re-encode 0.0–2.0 s: the layer is transformed"])
        #expect(report.fallback == .transform)
    }

    /// The passthrough preset has nothing to re-encode with: smart rendering is refused before anything is read.
    @Test func passthroughRefusesSmartRendering() throws {
        var composition = MutableComposition()
        _ = try composition.addMutableTrack(withMediaType: .video)
        let session = AssetExportSession(asset: composition, preset: .passthrough)
        session.outputURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("never.mp4")
        session.smartRendering = true
        #expect(throws: ExportError.self) { try session.makePlan() }
    }
}
