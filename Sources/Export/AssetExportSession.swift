import SpliceFFmpeg
import AudioMix
import Composition
import Foundation
import VideoComposition

/// Renders a composition — with an optional video composition and audio mix — to a file, asynchronously, with
/// progress: Splice's `AVAssetExportSession`.
///
/// Configure the session, then `try await export()`. Rendering runs in-process through libav* on a dedicated
/// thread (never on Swift's cooperative pool). The session is `Sendable`: ``cancelExport()``, ``status`` and
/// ``progress`` may be used from any task while an export runs.
///
/// **Nothing is lost.** An existing file at ``outputURL`` is an error (AVFoundation's rule) unless
/// ``overwritesExistingFile`` is set; output is written to an unnamed temporary file (`O_TMPFILE`) in the same
/// directory and linked into place only when complete (a hidden `.partial` file where the file system lacks
/// `O_TMPFILE`); failure and cancellation leave nothing behind and leave any existing file untouched.
///
/// ```swift
/// let session = AssetExportSession(asset: composition, preset: .preset1920x1080)
/// session.outputURL = URL(fileURLWithPath: "out.mp4")
/// session.videoComposition = videoComposition
/// session.audioMix = audioMix
/// try await session.export()
/// ```
public final class AssetExportSession: Sendable {
    /// The lifecycle of an export, as `AVAssetExportSession.Status`.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Configured, not started.
        case waiting
        /// Rendering.
        case exporting
        /// The file is in place at ``AssetExportSession/outputURL``.
        case completed
        /// Stopped by an error (see ``AssetExportSession/error``); no file was left behind.
        case failed
        /// Stopped by ``AssetExportSession/cancelExport()`` or task cancellation; no file was left behind.
        case cancelled
    }

    struct State {
        var status: Status = .waiting
        var error: (any Error)?
        var fileLengthLimitReached = false
        var smartRenderReport: SmartRenderReport?
        var passthroughReport: PassthroughReport?
        /// ``progress`` and the ``progressUpdates`` streams following it.
        var progress = ProgressBroadcast()
        /// The part sessions of a concurrent segmented export (``concurrentSegments``), cancelled with this one.
        var parts: [AssetExportSession] = []
        /// Told every new progress value (a part session reports to its concurrent export this way).
        var progressObserver: (@Sendable (Double) -> Void)?
    }

    /// The composition being exported.
    public let asset: MutableComposition
    /// The encoder settings; nil for passthrough.
    public let settings: ExportSettings?
    /// The preset the session was made with, if any.
    public let preset: ExportPreset?
    let request: Locked<ExportRequest>
    let state = Locked(State())
    let cancellation = CancellationFlag()

    /// A session for `asset` with an AVFoundation preset.
    public init(asset: MutableComposition, preset: ExportPreset) {
        self.asset = asset
        self.preset = preset
        settings = preset.settings
        request = Locked(ExportRequest())
        if preset == .appleM4A { request.withLock { $0.outputFileType = .m4a } }
    }

    /// A session for `asset` with an AVFoundation preset name (`"AVAssetExportPreset1920x1080"`, …), as
    /// `AVAssetExportSession(asset:presetName:)`.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the unknown preset and listing the known ones.
    public convenience init(asset: MutableComposition, presetName: String) throws {
        guard let preset = ExportPreset(rawValue: presetName) else {
            throw ExportError.unsupportedSettings(
                "unknown preset '\(presetName)'; known presets: "
                    + ExportPreset.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.init(asset: asset, preset: preset)
    }

    /// A session for `asset` with explicit encoder settings (beyond AVFoundation: codec, quality, size, rate).
    public init(asset: MutableComposition, settings: ExportSettings) {
        self.asset = asset
        self.preset = nil
        self.settings = settings
        request = Locked(ExportRequest())
    }

    // MARK: Configuration (set before export())

    /// Where the file goes. Required.
    public var outputURL: URL? {
        get { request.withLock { $0.outputURL } }
        set { request.withLock { $0.outputURL = newValue } }
    }

    /// The container; nil picks it from ``outputURL``'s extension (`.mp4`, `.mov`, `.m4a`, `.mkv`, `.webm`).
    public var outputFileType: FileType? {
        get { request.withLock { $0.outputFileType } }
        set { request.withLock { $0.outputFileType = newValue } }
    }

    /// How the video looks; nil uses `MutableVideoComposition(propertiesOf:)` (upright, aspect-fit).
    public var videoComposition: MutableVideoComposition? {
        get { request.withLock { $0.videoComposition } }
        set { request.withLock { $0.videoComposition = newValue } }
    }

    /// How the audio tracks are mixed; nil plays every track at its preferred volume.
    public var audioMix: MutableAudioMix? {
        get { request.withLock { $0.audioMix } }
        set { request.withLock { $0.audioMix = newValue } }
    }

    /// The part of the composition to export, in composition time; the whole composition by default
    /// (`[0, +∞)`, clipped to the duration).
    public var timeRange: TimeRange {
        get { request.withLock { $0.timeRange } }
        set { request.withLock { $0.timeRange = newValue } }
    }

    /// The text format the composition's subtitle tracks are written in; nil (the default) for the container's own:
    /// mov_text in MP4/MOV, WebVTT in WebM, ASS in Matroska when every source is ASS and SubRip otherwise. A codec
    /// the file type cannot hold makes the export fail with ``ExportError/unsupportedSettings(_:)`` before anything
    /// is written.
    public var subtitleCodec: SubtitleCodec? {
        get { request.withLock { $0.subtitleCodec } }
        set { request.withLock { $0.subtitleCodec = newValue } }
    }

    /// Chapters to write, each a group with a `title` item over its range in composition time (a port of
    /// `AVAssetWriter`'s chapter metadata groups); clipped to ``timeRange`` and moved with it. MP4 and MOV get a
    /// QuickTime chapter track and a Nero chapter list, Matroska and WebM an edition; times are written to the
    /// millisecond (the MP4 chapter track's resolution), rounded half away from zero. MP4 and MOV keep only each
    /// chapter's start: read back, a chapter runs until the next starts.
    ///
    /// Empty by default: the export then carries its sources' chapters through the edit (unless
    /// ``carriesSourceMetadata`` is false) — the chapters of the sources of the first enabled video track with media
    /// (else audio track), clipped by cuts, moved by ripples and empty ranges, scaled with the segment, left out when
    /// cut away, the pieces of one chapter that meet again joined. AVFoundation writes no chapters for a
    /// composition (it has none); set chapters here to write exactly those.
    public var chapterMetadataGroups: [TimedMetadataGroup] {
        get { request.withLock { $0.chapterMetadataGroups } }
        set { request.withLock { $0.chapterMetadataGroups = newValue } }
    }

    /// Timed metadata to write (a port of `AVAssetWriterInputMetadataAdaptor`'s `AVTimedMetadataGroup`s on an
    /// export): each group's items over its range in composition time — e.g. a location changing over a recording —
    /// clipped to ``timeRange`` and moved with it, as chapters are; a group that the range cuts keeps the part
    /// inside it. Written in MP4 and MOV as a timed metadata track (SpliceFFmpeg's `TimedMetadataTrack`: a `tx3g`
    /// text track with the handler `Timed Metadata`, one sample per group, times to the millisecond, rounded half
    /// away from zero); read back with `Asset.loadTimedMetadataGroups(from:)`. Every export path writes them: the
    /// encoding export, the passthrough preset, ``smartRendering`` and the join of ``concurrentSegments``. Other
    /// containers, a group with an invalid or empty range, and a ``movieFragmentInterval`` (FFmpeg 5.1's muxer
    /// aborts on a timed metadata track in fragments) make ``validate()`` and ``export()`` throw
    /// ``ExportError/unsupportedSettings(_:)``.
    ///
    /// Empty by default: the export then writes the composition's enabled metadata tracks (`MediaType.metadata`),
    /// one timed metadata track each, their sources' groups placed through the tracks' segments as subtitle cues are
    /// (clipped by cuts, moved by ripples and empty ranges, scaled with the segment, none where a segment reverses,
    /// freezes or ramps, the pieces of one group that meet again joined); in MP4 and MOV only, other file types leave
    /// them out, as an `.m4a` file leaves out subtitle tracks; with a ``movieFragmentInterval`` they are refused as
    /// the groups set here are. Groups set here win: the composition's metadata tracks
    /// are then not written, as chapters set on the session replace the sources' (AVFoundation's export session has
    /// no timed metadata setting; a writer's metadata input adds a track of its own).
    public var timedMetadataGroups: [TimedMetadataGroup] {
        get { request.withLock { $0.timedMetadataGroups } }
        set { request.withLock { $0.timedMetadataGroups = newValue } }
    }

    /// Container metadata to write (`title`, `creation_time`, `location`, `com.apple.quicktime.make`, …), keyed as
    /// libavformat names them (``MetadataItem/commonKey`` lists the common ones). These items win over the ones
    /// carried from the source (``carriesSourceMetadata``): an item replaces every source item with the same raw key
    /// or the same common key, so setting `location` also replaces the source's
    /// `com.apple.quicktime.location.ISO6709`; `creationDate`, `copyrights` and `creator` (AVFoundation's common key
    /// identifiers) are written as `creation_time`, `copyright` and `composer`. Where each key lands is the rule the
    /// asset writer and the capture movie file output share: `creation_time` in the movie header; in MOV, `location`
    /// as QuickTime user data `©xyz` (the ISO 6709 text as given), in MP4 as the 3GPP `loci` box (latitude,
    /// longitude and altitude as numbers, read back as e.g. `+48.8584+002.2945/`); a key those containers' boxes
    /// cannot hold (`make` in MP4, `software`, `com.apple.quicktime.…`, custom keys) puts every item in the
    /// QuickTime `mdta` key space (`keys`/`ilst`, the text as given; the location then also a `loci` box, in MOV
    /// too, without `©xyz`). Empty by default.
    /// A `location` item (by common key) that is not ISO 6709 text makes ``validate()`` and ``export()`` throw
    /// ``ExportError/unsupportedSettings(_:)`` naming the key and the value.
    public var metadata: [MetadataItem] {
        get { request.withLock { $0.metadata } }
        set { request.withLock { $0.metadata = newValue } }
    }

    /// Whether the output carries the container metadata of its first video source (the source of the first
    /// video segment in ``timeRange``; of the first audio segment when no track is video): its creation date,
    /// location, make, model, software, title and custom keys survive a trim or an edit, as they do when
    /// AVFoundation's passthrough export copies an asset. ``metadata`` items win over carried ones. Not carried:
    /// the container's own description (`major_brand`, `minor_version`, `compatible_brands`), `encoder` (the
    /// writing software, which is now FFmpeg's muxer) and language variants (`location-eng`) of keys also present
    /// without one. True by default; false writes only ``metadata`` (and no source chapters:
    /// ``chapterMetadataGroups``). Applies to rendered, passthrough and smart-rendered
    /// exports (not to concurrent segments, which write only ``metadata``).
    public var carriesSourceMetadata: Bool {
        get { request.withLock { $0.carriesSourceMetadata } }
        set { request.withLock { $0.carriesSourceMetadata = newValue } }
    }

    /// Replace a file already at ``outputURL``. False by default: an existing file is an error, as in AVFoundation.
    public var overwritesExistingFile: Bool {
        get { request.withLock { $0.overwritesExistingFile } }
        set { request.withLock { $0.overwritesExistingFile = newValue } }
    }

    /// A true-peak limiter on the mix, for loudness delivery: the mixed sound is oversampled 4× and passed through
    /// libavfilter's `alimiter` (lookahead, delay compensated, no automatic level) with its limit at this many dBTP,
    /// then resampled back, before the encoder. nil (default): no limiter. Applies to an ordinary export (not smart
    /// rendering or concurrent segments).
    package var truePeakLimit: Double? {
        get { request.withLock { $0.truePeakLimit } }
        set { request.withLock { $0.truePeakLimit = newValue } }
    }

    /// Set to encode the video as a joinable part of a segmented export (``SegmentedExport``) whose whole duration
    /// this is: IDR first, closed GOPs, the same encoder clock in every part.
    var segmentedExportDuration: MediaTime? {
        get { request.withLock { $0.segmentedExportDuration } }
        set { request.withLock { $0.segmentedExportDuration = newValue } }
    }

    /// The checks made from the models alone (``validate()``, ``export()`` and segmented export all start here): the
    /// plan, or the refusal. Opens no file.
    func makePlan() throws -> ExportPlan {
        let request = self.request.withLock { $0 }
        return try ExportPlanner(composition: asset, settings: settings, preset: preset, request: request).makePlan()
    }

    // MARK: Observation

    /// Where the export is.
    public var status: Status { state.withLock { $0.status } }

    /// The error that failed the export, when ``status`` is `.failed`.
    public var error: (any Error)? { state.withLock { $0.error } }

    /// How far the export is, 0…1, monotonic: rendered composition time ÷ exported duration up to 0.9, then the
    /// encoders' flush (0.95) and the trailer with the index move (0.99); 1.0 only when the file is complete and in
    /// place at ``outputURL`` (``status`` is then `.completed`).
    public var progress: Double { state.withLock { $0.progress.value } }

    /// True when the export completed early because of ``fileLengthLimit``.
    public var fileLengthLimitReached: Bool { state.withLock { $0.fileLengthLimitReached } }

    /// A stream of ``progress`` values (0…1, monotonic) that keeps only the newest value when the reader is slow;
    /// it finishes when the export ends. Each access makes a new stream.
    public var progressUpdates: AsyncStream<Double> {
        state.withLock { $0.progress.makeStream() }
    }

    /// Stops a running export promptly (also inside blocking FFmpeg I/O); `export()` then throws
    /// `CancellationError` and no file is left behind. Calling it before `export()` makes the export cancel at once.
    public func cancelExport() {
        cancellation.cancel()
        for part in state.withLock({ $0.parts }) { part.cancelExport() }
    }

    // MARK: Export

    /// Renders the composition to ``outputURL``.
    ///
    /// Bad input is reported before any file is touched: no output URL, an existing file, an invalid video
    /// composition or audio mix (every problem listed), an unreadable source, a missing encoder, settings out of
    /// range. Splice's own limits: a render size of at most 8192 × 8192 pixels, a frame duration from 1/1000 s to
    /// 60 s, at most 32 layers drawn by one instruction and 64 audio tracks mixed (each is decoded at the same time).
    ///
    /// - Throws: ``ExportError`` naming the cause; `CancellationError` when cancelled by ``cancelExport()`` or by
    ///   cancelling the calling task.
    public func export() async throws {
        let claimed = state.withLock { state -> Bool in
            guard state.status == .waiting else { return false }
            state.status = .exporting
            return true
        }
        guard claimed else {
            throw ExportError.unsupportedSettings("this session has already exported; make a new session to export again")
        }
        do {
            let plan = try makePlan()
            let limitReached = try await withTaskCancellationHandler {
                if let count = request.withLock({ $0.concurrentSegments }), count != 1 {
                    try await exportConcurrentSegments(count, plan: plan)
                    return false
                }
                if plan.smartRendering { return try await exportSmart(plan) }
                if let passthrough = plan.passthrough { return try await exportPassthrough(plan, passthrough) }
                return try await runOnWorkerThread(plan)
            } onCancel: {
                cancelExport()
            }
            finish(.completed, error: nil, limitReached: limitReached)
        } catch {
            let cancelled = error is CancellationError || cancellation.isCancelled
            finish(cancelled ? .cancelled : .failed, error: cancelled ? nil : error, limitReached: false)
            throw cancelled ? CancellationError() : error
        }
    }

    /// The filter graphs the export uses, as text (one per distinct request, in timeline order), compiled from
    /// the models and the sources' described formats without decoding. For debugging and for people who know FFmpeg.
    /// - Throws: the planning errors of ``export()`` (invalid models, unknown preset).
    public func filterGraphDescription() throws -> String {
        try makePlan().describeGraphs()
    }

    /// Makes every check ``export()`` makes before it writes, and writes nothing: the same code path, so a session
    /// that validates exports (short of failures while writing, such as a full disk or a source damaged part-way).
    ///
    /// The checks, in order: output URL, file type, output location (missing or read-only directory, an existing
    /// file), the export time range, container/codec compatibility, encoder availability in the linked FFmpeg,
    /// settings ranges, video composition and audio mix validation, filter availability, Splice's limits; for
    /// passthrough, whether each segment can be stream-copied: a start on a key frame, an end outside pictures
    /// reordered for B-frames (read from the sources' packets around each cut), equal codec parameters at joins and
    /// a container that holds the codec. Sources are opened on a worker thread, not on the cooperative pool.
    /// - Throws: the ``ExportError`` that ``export()`` would throw first; `CancellationError` when the task is cancelled.
    public func validate() async throws {
        let plan = try makePlan()
        guard plan.passthrough != nil else { return }
        let cancellation = CancellationFlag()
        try await withTaskCancellationHandler {
            try await WorkerThread.run(name: "splice.validate") { try Self.checkSources(of: plan, cancellation: cancellation) }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The checks that read the sources (passthrough cut points and codec parameters), made on a worker thread
    /// before anything is written (``validate()`` and ``export()`` both come here).
    private static func checkSources(of plan: ExportPlan, cancellation: CancellationFlag) throws {
        try plan.passthrough?.checkSources(cancellation: cancellation)
    }

    /// Runs `plan` as an ordinary export (passthrough or render) on a worker thread.
    func runOnWorkerThread(_ plan: ExportPlan) async throws -> Bool {
        let cancellation = self.cancellation
        return try await WorkerThread.run(name: "splice.export") { [self] in
            try Self.checkSources(of: plan, cancellation: cancellation)
            return try ExportJob(plan: plan).run(cancellation: cancellation) { [self] value in publish(progress: value) }
        }
    }

    /// Exports `part` as a step of this session's work: ``cancelExport()`` on this session cancels it too.
    /// - Throws: the part's errors; `CancellationError` when this session is cancelled before or during it.
    package func exportAsPart(_ part: AssetExportSession) async throws {
        state.withLock { $0.parts.append(part) }
        defer { state.withLock { $0.parts.removeAll { $0 === part } } }
        if cancellation.isCancelled { throw CancellationError() }
        try await part.export()
    }

    func publish(progress value: Double) {
        let observer = state.withLock { state -> (@Sendable (Double) -> Void)? in
            state.progress.publish(value) ? state.progressObserver : nil
        }
        observer?(value)
    }

    private func finish(_ status: Status, error: (any Error)?, limitReached: Bool) {
        state.withLock { state in
            state.status = status
            state.error = error
            state.fileLengthLimitReached = limitReached
            state.progress.finish(completed: status == .completed)
        }
    }
}
