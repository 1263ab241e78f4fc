import AudioMix
import Composition
import Foundation
import SpliceFFmpeg
import VideoComposition

/// The three steps of a segmented export, as library API — the same steps `splice plan`, `splice render-segment`
/// and `splice join` run, on one machine or spread over a batch scheduler's workers:
///
/// 1. ``makePlan(segmentCount:documentPath:partsDirectory:)`` cuts the export into a ``SegmentPlan``;
/// 2. ``renderSegment(_:)`` renders one part (video only: an IDR picture first, closed GOPs, the plan's settings —
///    with constant-quality rate control every part is coded alike; with an average bit rate each part meets it on
///    its own); idempotent: a complete part is kept;
/// 3. ``join(to:overwrite:)`` renders the audio once for the whole range (``renderAudio()``, also idempotent), checks
///    every part and muxes them back to back with the audio, without re-encoding; the subtitle tracks (their cues
///    placed over the whole range, as one export places them), the chapters and the streams' tags are written
///    there, once.
///
/// Every file is written through a temporary file and named only when complete, so a part that exists is whole.
public struct SegmentedExport: Sendable {
    /// The composition being exported.
    public var composition: MutableComposition
    /// How the video looks; nil: `MutableVideoComposition(propertiesOf:)`.
    public var videoComposition: MutableVideoComposition?
    /// How the audio is mixed; nil: every track at its preferred volume.
    public var audioMix: MutableAudioMix?
    /// Encoder settings (the plan's).
    public var settings: ExportSettings
    /// The part of the composition to export.
    public var timeRange: TimeRange
    /// A compositor of your own (``VideoCompositing``) for the segments this value renders, in this process
    /// (``renderSegment(_:of:)``; ``AssetExportSession/concurrentSegments`` sets it from its session). A Swift value
    /// cannot travel in a plan file: ``makePlan(segmentCount:fileType:documentPath:partsDirectory:)`` records its
    /// type's name in the plan (``SegmentPlan/customCompositor``), and rendering a segment of that plan without a
    /// compositor (`splice render-segment`, a Slurm worker) fails with ``SegmentError/customCompositorRequired(_:)``.
    public var customVideoCompositor: (any VideoCompositing)?
    /// Chapters the join writes, in composition time (``AssetExportSession/chapterMetadataGroups``); empty: the
    /// sources' chapters carried through the edit.
    public var chapterMetadataGroups: [TimedMetadataGroup] = []
    /// Timed metadata the join writes, in composition time (``AssetExportSession/timedMetadataGroups``); empty: the
    /// composition's metadata tracks.
    public var timedMetadataGroups: [TimedMetadataGroup] = []

    /// A segmented export of `composition` (the same models as ``AssetExportSession`` takes).
    public init(composition: MutableComposition, videoComposition: MutableVideoComposition?, audioMix: MutableAudioMix?,
                settings: ExportSettings, timeRange: TimeRange = TimeRange(start: .zero, duration: .positiveInfinity)) {
        self.composition = composition
        self.videoComposition = videoComposition
        self.audioMix = audioMix
        self.settings = settings
        self.timeRange = timeRange
    }

    /// Cuts the export into `segmentCount` segments (fewer when it has fewer frames), balanced by duration, cuts moved
    /// onto video composition instruction boundaries when close (``SegmentPlan/cuts(frameCount:segmentCount:preferredCuts:)``).
    ///
    /// - Parameters:
    ///   - fileType: the container of the parts and the joined file (`.mp4`, `.mov`, `.mkv`).
    ///   - documentPath: the composition document the workers load (stored in the plan).
    ///   - partsDirectory: where parts go; created when missing.
    /// - Throws: the planning errors of ``AssetExportSession/export()``; ``SegmentError/invalidPlan(_:)`` when the
    ///   export has no video, `segmentCount` < 1 or the file type is audio-only;
    ///   ``ExportError/outputNotWritable(_:reason:)`` naming `partsDirectory` when it cannot be made.
    public func makePlan(segmentCount: Int, fileType: FileType, documentPath: String, partsDirectory: URL) throws -> SegmentPlan {
        guard segmentCount >= 1 else { throw SegmentError.invalidPlan("the segment count \(segmentCount) must be at least 1") }
        guard fileType.supportsVideo else { throw SegmentError.invalidPlan("a .\(fileType.rawValue) file holds no video") }
        do {
            try FileManager.default.createDirectory(at: partsDirectory, withIntermediateDirectories: true)
        } catch {
            throw ExportError.outputNotWritable(partsDirectory, reason: FailureReason.words(for: error))
        }
        let session = makeSession(settings: settings, output: partsDirectory.appendingPathComponent("plan-check.\(fileType.rawValue)"),
                                  fileType: fileType, range: timeRange)
        session.overwritesExistingFile = true
        session.customVideoCompositor = customVideoCompositor
        let plan = try session.makePlan()
        guard let video = plan.video, plan.settings.video != nil else {
            throw SegmentError.invalidPlan("the export has no video to split")
        }
        let range = TimeRange(start: timeRange.start, duration: video.duration)
        let fd = video.frameDuration
        let boundaries = (videoComposition?.instructions ?? []).map { instruction in
            Int(((instruction.timeRange.start - range.start).seconds / fd.seconds).rounded())
        }
        let cuts = SegmentPlan.cuts(frameCount: video.frameCount, segmentCount: segmentCount, preferredCuts: boundaries)
        let segments = cuts.enumerated().map { index, cut in
            let start = range.start + fd * Int64(cut.firstFrame)
            let end = index == cuts.count - 1 ? range.end : range.start + fd * Int64(cut.firstFrame + cut.frameCount)
            return SegmentPlan.Segment(index: index, firstFrame: cut.firstFrame, frameCount: cut.frameCount,
                                       timeRange: TimeRange(start: start, end: end))
        }
        var segmentPlan = SegmentPlan(documentPath: documentPath, settings: plan.settings, fileType: fileType,
                                      partsDirectory: partsDirectory.path, timeRange: range, frameDuration: fd,
                                      hasAudio: plan.audio != nil && plan.settings.audio != nil, segments: segments)
        segmentPlan.customCompositor = customVideoCompositor.map { String(reflecting: type(of: $0)) }
        return segmentPlan
    }

    /// Renders segment `index` of `plan` into ``SegmentPlan/partURL(_:)``, video only, unless a complete part is
    /// already there.
    /// - Returns: false when the part was already there (nothing rendered).
    /// - Throws: ``SegmentError/noSuchSegment(index:count:)``; the errors of ``AssetExportSession/export()``;
    ///   `CancellationError`.
    @discardableResult
    public func renderSegment(_ index: Int, of plan: SegmentPlan) async throws -> Bool {
        guard let session = try segmentSession(index, of: plan) else { return false }
        try await session.export()
        return true
    }

    /// The session that renders segment `index` of `plan` (``renderSegment(_:of:)``), or nil when a complete part
    /// is already there.
    /// - Throws: ``SegmentError/noSuchSegment(index:count:)``; ``SegmentError/customCompositorRequired(_:)`` for a
    ///   plan made with a custom compositor when this value has none.
    func segmentSession(_ index: Int, of plan: SegmentPlan) throws -> AssetExportSession? {
        guard let segment = plan.segments.first(where: { $0.index == index }) else {
            throw SegmentError.noSuchSegment(index: index, count: plan.segments.count)
        }
        if let name = plan.customCompositor, customVideoCompositor == nil {
            throw SegmentError.customCompositorRequired(name)
        }
        let url = plan.partURL(index)
        if FileManager.default.fileExists(atPath: url.path) {
            let joiner = SegmentJoiner(plan: plan, outputURL: url, overwrite: true, cancellation: CancellationFlag())
            if (try? joiner.check(segment)) != nil { return nil }
        }
        let session = makeSession(settings: ExportSettings(video: plan.settings.video, audio: nil), output: url,
                                  fileType: plan.fileType, range: segment.timeRange)
        session.overwritesExistingFile = true
        session.shouldOptimizeForNetworkUse = false
        session.segmentedExportDuration = plan.timeRange.duration
        session.customVideoCompositor = customVideoCompositor
        return session
    }

    /// Renders the audio of the whole plan once into ``SegmentPlan/audioURL``, unless it is already there or the
    /// plan has no audio.
    /// - Returns: false when nothing was rendered.
    /// - Throws: the errors of ``AssetExportSession/export()``; `CancellationError`.
    @discardableResult
    public func renderAudio(of plan: SegmentPlan) async throws -> Bool {
        guard let session = audioSession(of: plan) else { return false }
        try await session.export()
        return true
    }

    /// The session that renders the plan's audio (``renderAudio(of:)``), or nil when there is nothing to render.
    func audioSession(of plan: SegmentPlan) -> AssetExportSession? {
        guard plan.hasAudio, !FileManager.default.fileExists(atPath: plan.audioURL.path) else { return nil }
        let session = makeSession(settings: ExportSettings(video: nil, audio: plan.settings.audio), output: plan.audioURL,
                                  fileType: plan.audioFileType, range: plan.timeRange)
        session.overwritesExistingFile = true
        session.shouldOptimizeForNetworkUse = false
        session.request.withLock { $0.isPart = true }
        return session
    }

    /// Renders the audio if needed, checks every part (present, readable to the end, the same codec parameters and
    /// parameter sets, a key frame first, exactly one picture on each frame of its range) and writes them back to back
    /// with the audio to `outputURL` (`faststart`), through a temporary file: on any error nothing is left there.
    /// With a positive `movieFragmentInterval` the joined file is a fragmented movie instead, written under
    /// `outputURL` from the start, a fragment beginning on the first key frame at least the interval after the
    /// last one began (as ``AssetExportSession/movieFragmentInterval``); on any error it is removed.
    /// - Throws: ``SegmentError/partMissing(index:_:)`` or ``SegmentError/partDamaged(index:_:reason:)`` naming the
    ///   first bad part; ``SegmentError/audioDamaged(_:reason:)``; ``ExportError/outputFileExists(_:)`` unless
    ///   `overwrite`; ``ExportError/outputNotWritable(_:reason:)`` for an output that is a directory, a source of
    ///   the composition or a file of the plan (before any work); ``ExportError/unsupportedSettings(_:)`` for a
    ///   `movieFragmentInterval` the plan's file type cannot take; write errors as ``ExportError``; `CancellationError`.
    public func join(_ plan: SegmentPlan, to outputURL: URL, overwrite: Bool = false,
                     movieFragmentInterval: MediaTime = .invalid) async throws {
        // The output is checked as an export checks it (a directory, a source of the edit, an existing file without
        // `overwrite`), and against the plan's own files, before the audio is rendered.
        let whole = try wholeExportPlan(plan, outputURL: outputURL, overwrite: overwrite,
                                        movieFragmentInterval: movieFragmentInterval)
        for file in plan.segments.map({ plan.partURL($0.index) }) + [plan.audioURL]
        where ExportPlanner.isSameFile(file, outputURL) {
            throw ExportError.outputNotWritable(
                outputURL, reason: "it is a file of the segment plan (\(file.path)), which the join reads; write the joined "
                    + "file to another file")
        }
        try await renderAudio(of: plan)
        let cancellation = CancellationFlag()
        try await withTaskCancellationHandler {
            try await WorkerThread.run(name: "splice.join") {
                try SegmentJoiner(plan: plan, outputURL: outputURL, overwrite: overwrite, subtitles: whole.subtitles,
                                  chapters: whole.chapters, timedMetadata: whole.timedMetadata,
                                  streamMetadata: (whole.videoStreamMetadata, whole.audioStreamMetadata),
                                  movieFragmentInterval: whole.movieFragmentInterval, cancellation: cancellation).run()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The plan of `plan`'s range exported in one piece to `outputURL`: the subtitle tracks, timed metadata tracks,
    /// chapters and stream tags the join writes. Planned only (nothing is read or written).
    /// - Throws: the planning errors of ``AssetExportSession/export()``.
    private func wholeExportPlan(_ plan: SegmentPlan, outputURL: URL, overwrite: Bool,
                                 movieFragmentInterval: MediaTime = .invalid) throws -> ExportPlan {
        let session = makeSession(settings: plan.settings, output: outputURL, fileType: plan.fileType, range: plan.timeRange)
        session.overwritesExistingFile = overwrite
        session.movieFragmentInterval = movieFragmentInterval
        session.chapterMetadataGroups = chapterMetadataGroups
        session.timedMetadataGroups = timedMetadataGroups
        return try session.makePlan()
    }

    private func makeSession(settings: ExportSettings, output: URL, fileType: FileType, range: TimeRange) -> AssetExportSession {
        let session = AssetExportSession(asset: composition, settings: settings)
        session.outputURL = output
        session.outputFileType = fileType
        session.videoComposition = videoComposition
        session.audioMix = audioMix
        session.timeRange = range
        return session
    }
}
