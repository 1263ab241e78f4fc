import Foundation
import SpliceFFmpeg

extension AssetExportSession {
    /// Render the video as this many segments at once on this machine and join them without re-encoding; nil or 1
    /// (the default) for one ordinary export. Must be ≥ 1.
    ///
    /// With N ≥ 2 the export is cut into N segments of the output frame grid (``SegmentedExport/makePlan(segmentCount:fileType:documentPath:partsDirectory:)``),
    /// each rendered by its own in-process export (an IDR picture first, closed GOPs, the same encoder settings) into
    /// a hidden work folder beside ``outputURL`` (`.splice-segments-UUID`, locked while the process lives: one left by
    /// a killed process is removed by the next concurrent export into that folder), while the audio is rendered once
    /// for the whole range; then the parts are checked and joined into ``outputURL``
    /// (``SegmentedExport/join(_:to:overwrite:)``, `faststart`) and the folder is removed. ``progress`` combines the parts (by frames) up to 0.9, then the join. Cancelling stops
    /// every part and leaves nothing behind, neither the output nor a part; a failing part stops the others.
    ///
    /// **What it costs.** Memory and open files of about N exports (N sets of decoders, filter graphs and encoders
    /// at once), N times the encoder's start-up, and a key frame at every segment start (with a lossy codec a few
    /// more bits there; with constant-quality rate control the pictures match a single export's to within a
    /// rounding of the GOP structure). It pays only when the encoder cannot use the machine's cores by itself
    /// (a single-threaded or poorly threaded encoder, small pictures, a filter-bound render); x264 and most encoders
    /// already thread well, and there it can be slower. It is never switched on automatically: on the 2-core machine
    /// measured (Benchmarks/README.md, W5: 60 s at 720p, x264 medium) 2 concurrent segments used the same CPU as
    /// one export (0.99×) and 1.7× its peak memory, so no core count where it pays has been found.
    ///
    /// With a ``customVideoCompositor`` every part's export calls it (at its segment's composition times); one that
    /// does not ``VideoCompositing/supportsConcurrentRendering`` is still called one request at a time across parts.
    ///
    /// The subtitle tracks and the chapters are written once, by the join: the cues placed over the whole range as
    /// one export places them.
    ///
    /// Not combined with the passthrough preset, ``fileLengthLimit``, ``metadata``, ``smartRendering`` or an export
    /// without video: ``validate()`` and ``export()`` then throw ``ExportError/unsupportedSettings(_:)`` before
    /// anything is opened or written. The output always has its index first (as with
    /// ``shouldOptimizeForNetworkUse``).
    public var concurrentSegments: Int? {
        get { request.withLock { $0.concurrentSegments } }
        set { request.withLock { $0.concurrentSegments = newValue } }
    }

    /// The name's start of the concurrent segments' work folder beside the output (``WorkFolder``:
    /// `.splice-segments-UUID`).
    package static let concurrentSegmentsWorkFolderPrefix = ".splice-segments"

    /// ``export()`` with ``concurrentSegments`` = `count`: plan, render the parts and the audio concurrently, join.
    /// - Throws: the errors of the parts' exports and of the join (``SegmentError``); `CancellationError`.
    func exportConcurrentSegments(_ count: Int, plan: ExportPlan) async throws {
        // The count and the settings it cannot be combined with were refused by the planner (makePlan), as validate() does.
        let request = self.request.withLock { $0 }
        let output = plan.outputURL
        // Locked while this process lives: parts left by a killed export are removed by the next one there.
        let folder = try WorkFolder(in: output.deletingLastPathComponent(), prefix: Self.concurrentSegmentsWorkFolderPrefix)
        defer { folder.remove() }
        let parts = folder.url
        var segmented = SegmentedExport(composition: asset, videoComposition: request.videoComposition,
                                        audioMix: request.audioMix, settings: plan.settings, timeRange: request.timeRange)
        // Every part gets the compositor; one that cannot render concurrently is called by one part at a time.
        segmented.customVideoCompositor = request.customVideoCompositor.map { compositor in
            compositor.supportsConcurrentRendering ? compositor : SerializedCompositor(compositor)
        }
        let segmentPlan: SegmentPlan
        do {
            segmentPlan = try segmented.makePlan(segmentCount: count, fileType: plan.fileType, documentPath: output.path,
                                                 partsDirectory: parts)
        } catch {
            throw Self.naming(output, in: error, partsIn: parts)
        }
        var sessions: [(session: AssetExportSession, weight: Double)] = []
        for segment in segmentPlan.segments {
            if let session = try segmented.segmentSession(segment.index, of: segmentPlan) {
                sessions.append((session, Double(segment.frameCount)))
            }
        }
        // The audio weighs as a tenth of the video frames: it renders much faster than they encode.
        if let audio = segmented.audioSession(of: segmentPlan) { sessions.append((audio, Double(segmentPlan.frameCount) / 10)) }
        do {
            try await renderConcurrently(sessions)
        } catch {
            throw Self.naming(output, in: error, partsIn: parts)
        }
        publish(progress: 0.9)
        let cancellation = self.cancellation
        try await WorkerThread.run(name: "splice.join") {
            try SegmentJoiner(plan: segmentPlan, outputURL: output, overwrite: plan.overwritesExistingFile,
                              subtitles: plan.subtitles, chapters: plan.chapters, timedMetadata: plan.timedMetadata,
                              streamMetadata: (plan.videoStreamMetadata, plan.audioStreamMetadata),
                              movieFragmentInterval: plan.movieFragmentInterval, cancellation: cancellation).run()
        }
    }

    /// `error` of the plan, a part's or the audio's export, naming `output` where it named the work folder `parts`
    /// or a file in it (which the caller never asked for and which is removed): what it named follows the reason —
    /// `(writing its part part-0001.mp4)` for a file, `(in its work folder .splice-segments-UUID)` for the folder.
    static func naming(_ output: URL, in error: any Error, partsIn parts: URL) -> any Error {
        let folder = parts.standardizedFileURL.path
        func context(_ url: URL) -> String? {
            let path = url.standardizedFileURL.path
            if path == folder { return "in its work folder \(url.lastPathComponent)" }
            return path.hasPrefix(folder + "/") ? "writing its part \(url.lastPathComponent)" : nil
        }
        switch error {
        case ExportError.writeFailed(let url, let reason):
            guard let context = context(url) else { return error }
            return ExportError.writeFailed(output, reason: "\(reason) (\(context))")
        case ExportError.outputNotWritable(let url, let reason):
            guard let context = context(url) else { return error }
            return ExportError.outputNotWritable(output, reason: "\(reason) (\(context))")
        default:
            return error
        }
    }

    /// Runs every session's export at once; progress is their weighted mean × 0.9. The sessions are cancelled with
    /// this one; the first failure cancels the rest and is thrown.
    private func renderConcurrently(_ sessions: [(session: AssetExportSession, weight: Double)]) async throws {
        let total = sessions.reduce(0) { $0 + $1.weight }
        for (session, _) in sessions {
            session.state.withLock {
                $0.progressObserver = { [self] _ in
                    let done = sessions.reduce(0) { $0 + $1.session.progress * $1.weight }
                    publish(progress: total > 0 ? 0.9 * done / total : 0)
                }
            }
        }
        state.withLock { $0.parts = sessions.map(\.session) }
        defer {
            state.withLock { $0.parts = [] }
            // Each observer holds every part (itself included): released here, or the parts would keep each other.
            for (session, _) in sessions { session.state.withLock { $0.progressObserver = nil } }
        }
        // A cancel that came before the parts were registered reaches them here.
        if cancellation.isCancelled { throw CancellationError() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (session, _) in sessions {
                group.addTask { try await session.export() }
            }
            try await group.waitForAll()
        }
    }
}
