import Foundation
import Testing
@testable import Export
import Splice
import SpliceTesting
import SpliceTestSupport

/// The smart-render suites' shared edit and check: pieces of a source back to back with a text title, exported with
/// smart rendering (the "three cuts and a 2 s title over the middle piece" edit on a 12 s source of 1 s groups), and
/// the check of a smart-rendered file — frame count, duration, a clean `ffmpeg -v error` decode, every copied picture
/// bit-identical to the source's, re-encoded ones ≥ 40 dB PSNR from the composition's render.
enum SmartRenderEdit {
    /// One frame at 30 fps, the synthetic sources' rate.
    static let frame = MediaTime(value: 1, timescale: 30)

    /// Three cuts on a 12 s source: source 0.5–3, 4–9 and 9.5–12 s (seconds) back to back, 10 s (300 frames at
    /// 30 fps); on 1 s groups two cuts fall inside a group, one on a boundary.
    static let threeCuts: [(Double, Double)] = [(0.5, 3), (4, 9), (9.5, 12)]
    /// The 2 s title over the middle piece of ``threeCuts``: output 3.5–5.5 s.
    static let middleTitle = TimeRange(start: MediaTime(seconds: 3.5, preferredTimescale: 30), duration: MediaTime(seconds: 2))
    /// The planner's spans (``SmartRenderPlannerTests/summary(_:)``) for ``threeCuts`` and ``middleTitle`` on closed
    /// 1 s groups: the 7 whole groups outside the title copied, the rest re-encoded with its reason.
    static let threeCutsSummary = [
        "re-encode 0.0–0.5 s: partial group of pictures at the cut at 0.000 s",
        "copy 0.5–2.5 s ×2",
        "copy 2.5–3.5 s ×1",
        "re-encode 3.5–5.5 s: overlay from 3.500 s to 5.500 s",
        "copy 5.5–7.5 s ×2",
        "re-encode 7.5–8.0 s: partial group of pictures at the cut at 7.500 s",
        "copy 8.0–10.0 s ×2",
    ]

    /// The source frame (30 fps) that output frame `k` of ``threeCuts`` shows: k + 15 in the first piece (frames
    /// 0–74), k + 45 in the second (75–224), k + 60 in the third.
    static func threeCutsSourceFrame(_ k: Int) -> Int { k < 75 ? k + 15 : k < 225 ? k + 45 : k + 60 }

    /// A synthetic source of 1 s groups: `testsrc2` at 320 × 240, 30 fps, a key frame every 30 frames (no scene
    /// cuts), three B-frames; closed GOPs (IDR key frames) or open ones (x264: recovery-point key frames; x265: CRA
    /// pictures with RASL leading pictures); H.264 with B-pyramid, or HEVC. Written losslessly packed as `name` in
    /// `scratch`, with the lavfi `audio` when given.
    static func source(
        _ codec: VideoSettings.Codec, openGOP: Bool, seconds: Int64 = 12, audio: String? = nil, named name: String,
        in scratch: ScratchDirectory
    ) throws -> URL {
        let groups = "keyint=30:min-keyint=30:scenecut=0:bframes=3"
        let open = "open-gop=\(openGOP ? 1 : 0)"
        let url = scratch.file(name)
        try SyntheticMedia.write(
            video: "testsrc2=s=320x240:r=30", audio: audio, duration: MediaTime(seconds: seconds), pixelFormat: .yuv420p,
            videoCodec: codec == .hevc
                ? .hevc(x265Parameters: "\(groups):\(open)") : .h264(x264Parameters: "\(groups):b-pyramid=normal:\(open)"),
            to: url)
        return url
    }

    /// The first video track of `url` and its groups of pictures (``GroupOfPicturesScan``).
    static func groups(of url: URL) async throws -> (track: AssetTrack, groups: [SmartRenderSource.Group]) {
        let track = try #require(try await Asset.load(from: url).tracks(withMediaType: .video).first)
        return (track, try #require(try GroupOfPicturesScan.scan(track, cancellation: CancellationFlag())).groups)
    }

    /// Expects the groups of a 12 s open-GOP ``source(_:openGOP:seconds:audio:named:in:)``: the first closed (the one
    /// IDR picture), no later one starting at an IDR picture, some with leading pictures shown before their key
    /// frame, 360 pictures in all.
    static func expectOpenGroups(_ groups: [SmartRenderSource.Group], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(groups.first?.isClosed == true, sourceLocation: sourceLocation)
        let later = groups.dropFirst()
        #expect(!later.isEmpty && later.allSatisfy { !$0.startsWithIDR }, "\(groups)", sourceLocation: sourceLocation)
        #expect(later.contains { $0.start < $0.keyFrameTime }, "leading pictures: \(groups)", sourceLocation: sourceLocation)
        #expect(groups.reduce(0) { $0 + $1.frameCount } == 360, sourceLocation: sourceLocation)
    }

    /// A smart-rendering export of `pieces` (source ranges in seconds, at timescale 30) of every track in `tracks`,
    /// back to back: each track gets its own composition track (added in order, so IDs 1, 2, …), and a piece's end
    /// is held to the first track's end. With a text title ("Title", 24 pt, a 200 × 40 pixel frame at 10, 10) over
    /// output `title`, `settings`, to `output`; `smart` false makes the ordinary export of the same edit.
    static func session(
        _ tracks: [AssetTrack], pieces: [(Double, Double)], title: TimeRange?, settings: ExportSettings, output: URL,
        smart: Bool = true
    ) throws -> (session: AssetExportSession, composition: MutableComposition, videoComposition: MutableVideoComposition) {
        var composition = MutableComposition()
        let first = try #require(tracks.first)
        var ids: [Int32] = []
        for track in tracks { ids.append(try composition.addMutableTrack(withMediaType: track.mediaType)) }
        var at = MediaTime.zero
        for (from, to) in pieces {
            let end = min(MediaTime(seconds: to, preferredTimescale: 30), first.timeRange.end)
            let range = TimeRange(start: MediaTime(seconds: from, preferredTimescale: 30), end: end)
            for (track, id) in zip(tracks, ids) { try composition.insertTimeRange(range, of: track, at: at, intoTrackWithID: id) }
            at = at + range.duration
        }
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        if let title {
            videoComposition.overlays = [OverlayLayer(
                content: .text(TextLayerContent(string: "Title", fontSize: 24)),
                frame: Rect(x: 10, y: 10, width: 200, height: 40), timeRange: title)]
        }
        let session = AssetExportSession(asset: composition, settings: settings)
        session.outputURL = output
        session.videoComposition = videoComposition
        session.smartRendering = smart
        return (session, composition, videoComposition)
    }

    /// Each decoded video picture's md5 by frame index (presentation time − `offset`, ÷ `frame`, nearest).
    static func videoDigests(_ url: URL, offset: MediaTime = .zero, frame: MediaTime = frame) async throws -> [Int: String] {
        let log = try await FrameDigestLog(contentsOf: url)
        let stream = try #require(log.streams.first { $0.mediaType == .video })
        var digests: [Int: String] = [:]
        for digest in log.frames where digest.streamIndex == stream.index {
            let seconds = Double(digest.timestamp) * stream.timeBase.seconds - offset.seconds
            let index = Int((seconds / frame.seconds).rounded())
            #expect(digests[index] == nil, "frame \(index) decoded twice from \(url.lastPathComponent)")
            digests[index] = digest.md5
        }
        return digests
    }

    /// Checks a smart-rendered file: `frameCount` frames of `frame` and `duration`, a clean decode by
    /// `ffmpeg -v error`, every copied frame k bit-identical to frame `sourceFrame(k).1` of file `sourceFrame(k).0`
    /// (its frames counted from `sourceOffset`), every third re-encoded frame ≥ 40 dB PSNR against the
    /// composition's render (the worst figure printed).
    static func check(
        _ output: URL, report: SmartRenderReport, frameCount: Int, duration: MediaTime, composition: MutableComposition,
        videoComposition: MutableVideoComposition, frame frameDuration: MediaTime = frame, sourceOffset: MediaTime = .zero,
        sourceFrame: (Int) -> (URL, Int)
    ) async throws {
        let exported = try await Asset.load(from: output)
        let track = try #require(exported.tracks(withMediaType: .video).first)
        #expect(track.video?.frameCount == frameCount)
        #expect(track.timeRange.duration == duration)
        try await FFmpegCommandLine.expectCleanDecode(of: output)
        let written = try await videoDigests(output, frame: frameDuration)
        #expect(written.count == frameCount)
        var originals: [URL: [Int: String]] = [:]
        var reencoded: [Int] = []
        var frame = 0
        for span in report.spans {
            for k in frame..<(frame + span.frameCount) {
                guard span.action == .copy else {
                    reencoded.append(k)
                    continue
                }
                let (url, index) = sourceFrame(k)
                if originals[url] == nil { originals[url] = try await videoDigests(url, offset: sourceOffset, frame: frameDuration) }
                #expect(written[k] != nil && written[k] == originals[url]?[index],
                        "copied frame \(k) is not frame \(index) of \(url.lastPathComponent) bit for bit")
            }
            frame += span.frameCount
        }
        // Re-encoded frames against the composition's own render (every third one: they are alike).
        var render = AssetImageGenerator(asset: composition)
        render.videoComposition = videoComposition
        render.requestedTimeToleranceBefore = .zero
        render.requestedTimeToleranceAfter = .zero
        var decoded = try AssetImageGenerator(asset: exported)
        decoded.requestedTimeToleranceBefore = .zero
        decoded.requestedTimeToleranceAfter = .zero
        var worst = Double.infinity
        for k in reencoded where k % 3 == 0 {
            let time = frameDuration * Int64(k)
            let expected = try await render.image(at: time).image
            let actual = try await decoded.image(at: time).image
            worst = min(worst, try FrameComparison(actual: actual, expected: expected).psnr)
        }
        #expect(reencoded.isEmpty || worst >= 40, "the worst re-encoded frame is \(worst) dB from the render")
        if !reencoded.isEmpty { print("smart render \(output.lastPathComponent): worst re-encoded frame \(String(format: "%.2f", worst)) dB against the render") }
    }
}
