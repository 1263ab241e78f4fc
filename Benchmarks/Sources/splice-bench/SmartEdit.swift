import Foundation
import Splice

extension Workloads {
    /// Output frames of the W6s title's start and length (20 s and 5 s at 30 fps).
    static let smartTitleFrames = (start: Int64(600), length: Int64(150))

    /// W6s (issue 18): the source's video and audio with 10 ranges of 100 frames removed — range k starts 7 frames
    /// into the 60-frame group at or before (k + 1) · F / 11 (F: the source's frames at 30 fps), so every cut falls
    /// inside a group of pictures — and a 5 s text title from 20 s. `Benchmarks/run`'s `w6_pieces` and
    /// `cli_smart_edit` do the same edit; keep them in step.
    static func smartEdit(source url: URL) async throws -> Edit {
        let asset = try await Asset.load(from: url)
        guard let video = asset.tracks(withMediaType: .video).first, let audio = asset.tracks(withMediaType: .audio).first else {
            throw BenchError.input("\(url.lastPathComponent) lacks video or audio")
        }
        let frame = MediaTime(value: 1, timescale: 30)
        let total = Int64((video.timeRange.duration.seconds * 30).rounded())
        var composition = MutableComposition()
        let videoTrack = try composition.addMutableTrack(withMediaType: .video)
        let audioTrack = try composition.addMutableTrack(withMediaType: .audio)
        var from: Int64 = 0
        var at = MediaTime.zero
        for k in 0...10 {
            let start = k < 10 ? (Int64(k + 1) * total / 11) / 60 * 60 + 7 : total
            let range = TimeRange(start: frame * from, end: frame * start)
            try composition.insertTimeRange(range, of: video, at: at, intoTrackWithID: videoTrack)
            try composition.insertTimeRange(range, of: audio, at: at, intoTrackWithID: audioTrack)
            at = at + range.duration
            from = start + 100
        }
        var videoComposition = MutableVideoComposition(propertiesOf: composition)
        videoComposition.overlays = [OverlayLayer(
            content: .text(TextLayerContent(string: "Title", fontSize: 48)),
            frame: Rect(x: 40, y: 40, width: 400, height: 80),
            timeRange: TimeRange(start: frame * smartTitleFrames.start, duration: frame * smartTitleFrames.length))]
        return Edit(composition: composition, video: videoComposition, audio: nil)
    }
}

extension Workloads {
    /// Frames removed at each cut of W6b's edit (a third of a second at 30 fps).
    static let breakEvenCutFrames = 10

    /// W6b (smart rendering's break-even): the source's video and audio with a cut every `cutEvery` seconds — cut k
    /// (k = 1, 2, …) at source frame k · 30 · `cutEvery` + 7, removing the next ``breakEvenCutFrames`` frames, for
    /// every cut that leaves frames after it — and nothing else (no title). The cuts fall inside 2 s groups, so
    /// the denser the cuts, the fewer whole groups are left to copy. `Benchmarks/run`'s `w6b_frames` counts the same
    /// frames; keep them in step.
    static func breakEvenEdit(source url: URL, cutEvery: Double) async throws -> Edit {
        let asset = try await Asset.load(from: url)
        guard let video = asset.tracks(withMediaType: .video).first, let audio = asset.tracks(withMediaType: .audio).first else {
            throw BenchError.input("\(url.lastPathComponent) lacks video or audio")
        }
        let frame = MediaTime(value: 1, timescale: 30)
        let total = Int64((video.timeRange.duration.seconds * 30).rounded())
        let period = Int64((cutEvery * 30).rounded())
        guard period > Int64(breakEvenCutFrames) else { throw BenchError.input("--cut-every \(cutEvery): cuts closer than the frames they remove") }
        var composition = MutableComposition()
        let videoTrack = try composition.addMutableTrack(withMediaType: .video)
        let audioTrack = try composition.addMutableTrack(withMediaType: .audio)
        var from: Int64 = 0
        var at = MediaTime.zero
        var k: Int64 = 1
        while from < total {
            let cut = k * period + 7
            let end = cut + Int64(breakEvenCutFrames) < total ? cut : total
            let range = TimeRange(start: frame * from, end: frame * end)
            try composition.insertTimeRange(range, of: video, at: at, intoTrackWithID: videoTrack)
            try composition.insertTimeRange(range, of: audio, at: at, intoTrackWithID: audioTrack)
            at = at + range.duration
            from = end == total ? total : cut + Int64(breakEvenCutFrames)
            k += 1
        }
        return Edit(composition: composition, video: MutableVideoComposition(propertiesOf: composition), audio: nil)
    }
}

extension SpliceBench {
    /// Exports W6s's edit with the benchmark's settings, smart-rendered (or, `full`, re-encoded whole), and says
    /// what smart rendering copied.
    static func smartExport(_ edit: Workloads.Edit, to url: URL, full: Bool) async throws -> String {
        try? FileManager.default.removeItem(at: url)
        let session = AssetExportSession(asset: edit.composition, settings: settings())
        session.outputURL = url
        session.outputFileType = .mp4
        session.shouldOptimizeForNetworkUse = true
        session.videoComposition = edit.video
        session.smartRendering = !full
        try await session.export()
        let frames = Int((edit.composition.duration.seconds * 30).rounded())
        guard let report = session.smartRenderReport else { return "frames=\(frames) smart=off" }
        let reencoded = report.spans.filter { $0.action == .reencode }.reduce(0) { $0 + $1.frameCount }
        return "frames=\(frames) copied=\(report.copiedFrameCount) frames in \(report.copiedGroupCount) groups, "
            + "re-encoded=\(reencoded) frames, fallback=\(report.fallback.map { "\($0)" } ?? "none")"
    }
}
