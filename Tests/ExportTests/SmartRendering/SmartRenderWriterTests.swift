import Foundation
import SpliceFFmpeg
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// Smart rendering written: copied groups of pictures and re-encoded pieces joined into one H.264 stream, checked
/// picture by picture — copied pictures bit-identical to the source's own decode, re-encoded ones ≥ 40 dB PSNR
/// against the composition's render — and with both Splice and `ffmpeg -v error`.
@Suite("Smart rendering: the mixed copy + re-encode writer")
struct SmartRenderWriterTests {
    static let frame = MediaTime(value: 1, timescale: 30)

    /// Pieces of the source's video (and audio, when it has some) back to back (source ranges in seconds), with a
    /// text title over output `title`, exported with smart rendering to `output`.
    static func session(
        _ asset: Asset, pieces: [(Double, Double)], title: TimeRange?, output: URL, smart: Bool = true
    ) throws -> (AssetExportSession, MutableVideoComposition) {
        let video = try #require(asset.tracks(withMediaType: .video).first)
        let audio = asset.tracks(withMediaType: .audio).first
        // Default settings (x264 medium, CRF 23): the re-encoded pieces take a CRF matched to the source instead.
        let settings = ExportSettings(video: VideoSettings(), audio: audio == nil ? nil : AudioSettings())
        let edit = try SmartRenderEdit.session(
            [video] + (audio.map { [$0] } ?? []), pieces: pieces, title: title, settings: settings, output: output, smart: smart)
        return (edit.session, edit.videoComposition)
    }

    /// The audio pictures' md5s in decoding order.
    static func audioDigests(_ url: URL) async throws -> [String] {
        let log = try await FrameDigestLog(contentsOf: url)
        guard let stream = log.streams.first(where: { $0.mediaType == .audio }) else { return [] }
        return log.frames.filter { $0.streamIndex == stream.index }.map(\.md5)
    }

    /// ``SmartRenderEdit/check(_:report:frameCount:duration:composition:videoComposition:frame:sourceOffset:sourceFrame:)``
    /// with one source: every copied frame k bit-identical to frame `sourceFrame(k)` of `source`.
    static func check(
        _ output: URL, report: SmartRenderReport, source: URL, sourceOffset: MediaTime = .zero, frameCount: Int,
        duration: MediaTime, composition: MutableComposition, videoComposition: MutableVideoComposition,
        frame frameDuration: MediaTime = frame, sourceFrame: (Int) -> Int
    ) async throws {
        try await SmartRenderEdit.check(
            output, report: report, frameCount: frameCount, duration: duration, composition: composition,
            videoComposition: videoComposition, frame: frameDuration, sourceOffset: sourceOffset
        ) { k in (source, sourceFrame(k)) }
    }

    /// Synthetic closed GOPs (1 s groups, B-pyramid) with a 1 kHz tone: three pieces, two cuts inside groups and one
    /// on a boundary, a 2 s title over the middle piece. The 7 groups the planner predicts are copied, the rest
    /// re-encoded; the audio equals an ordinary export's, sample for sample (so A/V sync is the ordinary export's).
    @Test func closedGOPsWithThreeCutsAndATitle() async throws {
        let scratch = try ScratchDirectory("smart-write-closed")
        defer { scratch.remove() }
        let sourceURL = try SmartRenderEdit.source(
            .h264, openGOP: false, audio: "sine=f=1000:r=48000", named: "closed.mov", in: scratch)
        let asset = try await Asset.load(from: sourceURL)
        let title = SmartRenderEdit.middleTitle
        let pieces = SmartRenderEdit.threeCuts
        let output = scratch.file("edit.mp4")
        let (session, videoComposition) = try Self.session(asset, pieces: pieces, title: title, output: output)
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.copiedGroupCount == 7)
        #expect(report.copiedFrameCount == 210)
        try await Self.check(
            output, report: report, source: sourceURL, frameCount: 300, duration: MediaTime(seconds: 10),
            composition: session.asset, videoComposition: videoComposition
        ) { k in SmartRenderEdit.threeCutsSourceFrame(k) }

        let (ordinary, _) = try Self.session(asset, pieces: pieces, title: title, output: scratch.file("ordinary.mp4"), smart: false)
        try await ordinary.export()
        let audio = try await Self.audioDigests(output)
        #expect(!audio.isEmpty)
        #expect(audio == (try await Self.audioDigests(scratch.file("ordinary.mp4"))))

        // The verifier accepts the smart file and refuses the ordinary one as a file that claims to copy groups 1–2
        // (source 1–3 s) at output frames 15–74: its pictures were re-encoded, so they differ from the source's.
        let sourceTrack = try #require(asset.tracks(withMediaType: .video).first)
        let groups = try #require(try GroupOfPicturesScan.scan(sourceTrack, cancellation: CancellationFlag())).groups
        let input = SmartRenderWriter.Input(
            source: sourceTrack, pieces: [SmartRenderPiece(content: .copied(source: sourceTrack, groups: Array(groups[1..<3])), frames: 15..<75)],
            audioURL: nil, frameDuration: Self.frame, fileType: .mp4, metadata: [], optimizeForNetworkUse: true, outputURL: output)
        let verifier = SmartRenderVerifier(input: input, frameCount: 300, cancellation: CancellationFlag())
        // Both groups lie beside a seam (the first after the cut at 0.5 s, the second before the one at 2.5 s).
        #expect(try verifier.verify(path: output.path) == .init(packetsCompared: 60, picturesDecoded: 60))
        #expect(throws: SmartRenderVerifier.Failure.self) { try verifier.verify(path: scratch.file("ordinary.mp4").path) }
    }

    /// Open GOPs: only the first group (the one IDR picture) is copied; the rest is re-encoded and joined after it.
    @Test func openGOPsCopyTheFirstGroupOnly() async throws {
        let scratch = try ScratchDirectory("smart-write-open")
        defer { scratch.remove() }
        let sourceURL = try SmartRenderEdit.source(.h264, openGOP: true, seconds: 6, named: "open.mov", in: scratch)
        let asset = try await Asset.load(from: sourceURL)
        let output = scratch.file("open.mp4")
        let (session, videoComposition) = try Self.session(asset, pieces: [(0, 2.5), (3, 6)], title: nil, output: output)
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.spans.first?.action == .copy && report.copiedGroupCount >= 1, "\(report)")
        try await Self.check(
            output, report: report, source: sourceURL, frameCount: 165, duration: MediaTime(value: 11, timescale: 2),
            composition: session.asset, videoComposition: videoComposition
        ) { k in k < 75 ? k : k + 15 }
    }

    /// Phone footage M09 (1080p30, IDR key frames at 0, 2 and 3 s, AAC with an edit list): three pieces and a title;
    /// the groups at 2 s and 3 s (46 frames) are copied bit for bit, the first 1.5 s re-encoded.
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func realFootageM09() async throws {
        let scratch = try ScratchDirectory("smart-write-m09")
        defer { scratch.remove() }
        let sourceURL = Fixture.sharedMedia("M09_h264_1080p30_audio-longer-than-video.mp4")
        let asset = try await Asset.load(from: sourceURL)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let end = track.timeRange.end.seconds
        let title = TimeRange(start: MediaTime(seconds: 0.5, preferredTimescale: 30), duration: MediaTime(seconds: 0.5, preferredTimescale: 30))
        let output = scratch.file("m09.mp4")
        let (session, videoComposition) = try Self.session(asset, pieces: [(0, 0.5), (1, 3), (3, end)], title: title, output: output)
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.copiedGroupCount == 2)
        #expect(report.copiedFrameCount == 46)
        try await Self.check(
            output, report: report, source: sourceURL, sourceOffset: track.startTimeOffset, frameCount: 91,
            duration: MediaTime(value: 91, timescale: 30), composition: session.asset, videoComposition: videoComposition
        ) { k in k < 15 ? k : k + 15 }
    }

    /// Phone footage M08 (29.97 fps, the first key frame at 0.033 s, one group of 82 pictures): the whole clip, then
    /// a second piece of it. The whole group is copied from its non-zero start, the second piece re-encoded after it.
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func realFootageM08AtNTSCRateWithANonZeroStart() async throws {
        let scratch = try ScratchDirectory("smart-write-m08")
        defer { scratch.remove() }
        let sourceURL = Fixture.sharedMedia("M08_h264_1280x720_29.97_nonzero-start.mp4")
        let asset = try await Asset.load(from: sourceURL)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let frame = MediaTime(value: 1001, timescale: 30000)
        var composition = MutableComposition()
        let id = try composition.addMutableTrack(withMediaType: .video)
        try composition.insertTimeRange(track.timeRange, of: track, at: .zero, intoTrackWithID: id)
        try composition.insertTimeRange(TimeRange(start: frame * 15, end: frame * 45), of: track, at: track.timeRange.duration,
                                        intoTrackWithID: id)
        let videoComposition = MutableVideoComposition(propertiesOf: composition)
        let session = AssetExportSession(
            asset: composition,
            settings: ExportSettings(video: VideoSettings(), audio: nil))
        session.outputURL = scratch.file("m08.mp4")
        session.videoComposition = videoComposition
        session.smartRendering = true
        try await session.export()
        let report = try #require(session.smartRenderReport)
        #expect(report.fallback == nil, "\(report)")
        #expect(report.copiedGroupCount == 1)
        #expect(report.copiedFrameCount == 82, "\(report)")
        try await Self.check(
            scratch.file("m08.mp4"), report: report, source: sourceURL, sourceOffset: track.startTimeOffset, frameCount: 112,
            duration: frame * 112, composition: composition, videoComposition: videoComposition, frame: frame
        ) { k in k < 82 ? k : k - 82 + 15 }
    }

    /// Phone footage M05 is full range (`yuvj420p`): nothing can be copied into the limited-range `yuv420p` output,
    /// and the report says so (the export is then an ordinary one).
    @Test(.enabled(if: Fixture.sharedMediaIsAvailable))
    func fullRangeFootageM05IsReencodedWithTheReason() async throws {
        let scratch = try ScratchDirectory("smart-write-m05")
        defer { scratch.remove() }
        let asset = try await Asset.load(from: Fixture.sharedMedia("M05_iphone13pro_livephoto_480x640_dropped-frame_audio-first.mov"))
        let (session, _) = try Self.session(asset, pieces: [(0, 1.5)], title: nil, output: scratch.file("m05.mp4"))
        let report = try #require(try session.makePlan().smartRenderReport(cancellation: CancellationFlag()))
        #expect(report.copiedGroupCount == 0)
        #expect(report.fallback == .formatMismatch("pixel format yuvj420p vs output yuv420p"), "\(report)")
    }

    /// Cancelling while the re-encoded pieces render stops the piece's session and leaves nothing behind: no output,
    /// no directory of pieces, no temporary file.
    @Test func cancellingLeavesNothingBehind() async throws {
        let scratch = try ScratchDirectory("smart-write-cancel")
        defer { scratch.remove() }
        let sourceURL = scratch.file("closed.mov")
        try SyntheticMedia.write(
            video: "testsrc2=s=320x240:r=30", audio: nil, duration: MediaTime(seconds: 6), pixelFormat: .yuv420p,
            videoCodec: .h264(x264Parameters: "keyint=30:min-keyint=30:scenecut=0:bframes=3:open-gop=0"), to: sourceURL)
        let asset = try await Asset.load(from: sourceURL)
        let output = scratch.file("cancelled.mp4")
        let title = TimeRange(start: .zero, duration: MediaTime(seconds: 3))
        let (session, _) = try Self.session(asset, pieces: [(0, 6)], title: title, output: output)
        async let piece = whenProgress(of: session, passes: 0.05, timeout: 300) {
            let parts = session.state.withLock { $0.parts }
            session.cancelExport()
            return parts
        }
        await #expect(throws: CancellationError.self) { try await session.export() }
        let parts = await piece
        #expect(parts?.count == 1, "the export never passed 5 % while rendering a piece")
        #expect(session.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0 != "closed.mov" }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
