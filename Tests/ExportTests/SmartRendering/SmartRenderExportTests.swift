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
        try SmartRenderEdit.source(.h264, openGOP: openGOP, named: openGOP ? "open.mov" : "closed.mov", in: scratch)
    }

    /// Pieces of `track` (source ranges in seconds) back to back, with a text title over output `title`.
    static func session(
        _ track: AssetTrack, pieces: [(Double, Double)], title: TimeRange?, output: URL
    ) throws -> AssetExportSession {
        try SmartRenderEdit.session(
            [track], pieces: pieces, title: title,
            settings: ExportSettings(video: VideoSettings(encoderPreset: "veryfast"), audio: nil), output: output
        ).session
    }

    static func report(of session: AssetExportSession) throws -> SmartRenderReport {
        try #require(try session.makePlan().smartRenderReport(cancellation: CancellationFlag()))
    }

    static func summary(_ report: SmartRenderReport) -> [String] { SmartRenderPlannerTests.summary(report.spans) }

    @Test func closedGroupsWithBFramesAreReadAsIDRGroups() async throws {
        let scratch = try ScratchDirectory("smart-closed")
        defer { scratch.remove() }
        let groups = try await SmartRenderEdit.groups(of: try Self.source(openGOP: false, in: scratch)).groups
        #expect(groups.count == 12)
        #expect(groups.allSatisfy { $0.isClosed && $0.frameCount == 30 })
        #expect(groups.map(\.keyFrameTime) == (0..<12).map { MediaTime(seconds: Int64($0)) })
        #expect(groups.last?.end == MediaTime(seconds: 12))
    }

    @Test func openGroupsAreReadWithTheirLeadingPictures() async throws {
        let scratch = try ScratchDirectory("smart-open")
        defer { scratch.remove() }
        let groups = try await SmartRenderEdit.groups(of: try Self.source(openGOP: true, in: scratch)).groups
        SmartRenderEdit.expectOpenGroups(groups)
        // The groups tile the stream in presentation order.
        #expect(zip(groups, groups.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    /// Three pieces (two cuts inside groups, one on a group boundary) and a 2 s title over the middle piece: the
    /// whole IDR groups outside the title are copied (7, as predicted from the 1 s groups), the rest re-encoded with
    /// its reason; the export writes the spans as planned and the file has exactly the composition's frames
    /// (SmartRenderWriterTests checks the pictures).
    @Test func threeCutsAndATitleOnClosedGOPs() async throws {
        let scratch = try ScratchDirectory("smart-edit")
        defer { scratch.remove() }
        let track = try #require(try await Asset.load(from: try Self.source(openGOP: false, in: scratch)).tracks(withMediaType: .video).first)
        let output = scratch.file("edit.mp4")
        let session = try Self.session(track, pieces: SmartRenderEdit.threeCuts, title: SmartRenderEdit.middleTitle, output: output)
        let report = try Self.report(of: session)
        #expect(Self.summary(report) == SmartRenderEdit.threeCutsSummary)
        #expect(report.copiedGroupCount == 7)
        #expect(report.spans.reduce(0) { $0 + $1.frameCount } == 300)

        try await session.export()
        let written = try #require(session.smartRenderReport)
        #expect(written.spans == report.spans)
        #expect(written.fallback == nil, "\(written)")
        let exported = try #require(try await Asset.load(from: output).tracks(withMediaType: .video).first)
        #expect(exported.video?.frameCount == 300)
        #expect(exported.timeRange.duration == MediaTime(seconds: 10))
        try await FFmpegCommandLine.expectCleanDecode(of: output)
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

    /// The audio renders beside the video pieces: progress still only rises and ends at 1; a cancel while both run
    /// stops both (`CancellationError`), and neither the file nor the hidden directory of pieces is left behind.
    @Test func audioRendersBesideThePiecesAndCancelsWithThem() async throws {
        let scratch = try ScratchDirectory("smart-concurrent-audio")
        defer { scratch.remove() }
        let sourceURL = try SmartRenderEdit.source(
            .h264, openGOP: false, audio: "sine=f=1000:r=48000", named: "closed.mov", in: scratch)
        let asset = try await Asset.load(from: sourceURL)
        let tracks = asset.tracks(withMediaType: .video) + asset.tracks(withMediaType: .audio)
        let settings = ExportSettings(video: VideoSettings(), audio: AudioSettings())

        let output = scratch.file("edit.mp4")
        let edit = try SmartRenderEdit.session(
            tracks, pieces: SmartRenderEdit.threeCuts, title: SmartRenderEdit.middleTitle, settings: settings, output: output)
        let updates = edit.session.progressUpdates
        let collected = Task { await updates.reduce(into: [Double]()) { $0.append($1) } }
        try await edit.session.export()
        let values = await collected.value
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "\(values)")
        #expect(values.last == 1)
        #expect(edit.session.smartRenderReport?.audio?.spans.first?.action == .reencode)
        #expect(scratch.contents == ["closed.mov", "edit.mp4"])

        let cancelled = scratch.file("cancelled.mp4")
        let second = try SmartRenderEdit.session(
            tracks, pieces: SmartRenderEdit.threeCuts, title: SmartRenderEdit.middleTitle, settings: settings, output: cancelled)
        let session = second.session
        let watcher = Task {
            for await value in session.progressUpdates where value > 0 {
                session.cancelExport()
                return
            }
        }
        await #expect(throws: CancellationError.self) { try await session.export() }
        await watcher.value
        #expect(scratch.contents == ["closed.mov", "edit.mp4"], "no output and no pieces left behind")
    }
}
