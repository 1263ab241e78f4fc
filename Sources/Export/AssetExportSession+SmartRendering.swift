import Foundation
import Composition
import SpliceFFmpeg

extension AssetExportSession {
    /// Copy, packet for packet, the parts of the video the edit did not touch, and re-encode only the rest (smart
    /// rendering). False by default. Needs encoder settings (not the passthrough preset:
    /// ``ExportError/unsupportedSettings(_:)``).
    ///
    /// A span can be copied where one H.264 or HEVC source (as the output's codec) is on screen untouched (identity layer, opacity 1, no crop, no
    /// overlay, speed 1) and its pictures match the output (size, pixel format, colour tags, square pixels, the
    /// output's constant frame rate): whole groups of pictures are copied from an IDR picture, or from an HEVC CRA
    /// picture marked a broken link without its leading pictures (H.265 §8.1.3); partial groups
    /// at cuts and everything else are rendered and encoded with settings matched to the copied source
    /// (``SmartRenderEncoding``: its profile and level, the parameter sets in-band; for H.264 a quality matched to the
    /// source's bits per pixel rather than the settings' rate control), and joined with the copied packets into one
    /// stream of an MP4 or MOV file; copied sources with different parameter sets, and HEVC, carry theirs in-band at
    /// each copied piece (``SmartRenderParameterSets``; sample entry `avc3` or `hev1`). The audio's AAC packets are
    /// copied when the whole audio track is untouched (one AAC source at speed 1, volume 1, no crossfade, the output's
    /// sample rate and channels: sample-exact, priming kept by the edit list), else it is rendered (re-encoded) as in
    /// an ordinary export; ``SmartRenderReport/audio`` says which and why. Before the file is named it is verified
    /// (``SmartRenderVerifier``): every packet byte-identical to the one it was copied from, and the pictures around
    /// every seam decoded and compared with each side's own decode; any difference, and the export is re-encoded as a
    /// whole instead. ``smartRenderReport`` says what was copied and re-encoded and why, and its
    /// ``SmartRenderReport/fallback`` why everything was re-encoded when it was (nothing to copy, a source the pieces
    /// cannot match, another container, a file length limit, a failed verification).
    ///
    /// Subtitle tracks are written as an ordinary export writes them (the cues cut and moved with the segments,
    /// encoded in the container's text format), and so are the chapters. A ``VideoComposition/SubtitleBurnIn``,
    /// which copied pictures would not show, is refused with ``ExportError/unsupportedSettings(_:)`` by
    /// ``validate()`` and ``export()`` before anything is written.
    public var smartRendering: Bool {
        get { request.withLock { $0.smartRendering } }
        set { request.withLock { $0.smartRendering = newValue } }
    }

    /// What smart rendering did, once ``export()`` has read the sources (nil without ``smartRendering`` or video,
    /// and before the export has planned); updated if verification made it fall back to a full re-encode.
    public var smartRenderReport: SmartRenderReport? { state.withLock { $0.smartRenderReport } }

    /// The name's start of the smart render's work folder beside the output (``WorkFolder``: `.splice-smart-UUID`).
    package static let smartRenderWorkFolderPrefix = ".splice-smart"

    /// ``export()`` with ``smartRendering``: plans, renders the re-encoded spans as pieces (video only, one at a
    /// time) and, at the same time, the audio into a hidden work folder beside the output (``WorkFolder``: removed
    /// by the next smart render there when this process is killed), joins them with the copied
    /// packets, verifies, and names the file; falls back to an ordinary export when the plan cannot be written or
    /// the file fails verification. Progress: the pieces up to 0.75 (by frames), the audio with them (0.8 when both
    /// are done), the join to 0.9, the verification.
    /// - Returns: false (no file length limit applies).
    /// - Throws: the errors of ``export()``; `CancellationError`.
    func exportSmart(_ plan: ExportPlan) async throws -> Bool {
        let cancellation = self.cancellation
        let decision = try await WorkerThread.run(name: "splice.smart-plan") {
            try plan.smartRenderDecision(cancellation: cancellation)
        }
        var ordinary = plan
        ordinary.smartRendering = false
        state.withLock { $0.smartRenderReport = decision?.report }
        guard let decision, decision.writesSpans, let source = decision.sampleEntrySource,
              let parameters = decision.parameters, let video = plan.video else {
            return try await runOnWorkerThread(ordinary)
        }
        let output = plan.outputURL
        // Locked while this process lives: a smart render killed before it ends leaves it for the next one to remove.
        let folder = try WorkFolder(in: output.deletingLastPathComponent(), prefix: Self.smartRenderWorkFolderPrefix)
        defer { folder.remove() }
        let directory = folder.url
        // The audio (one session, or a packet copy) runs beside the video pieces: its work is independent of theirs,
        // and on a short edit it would otherwise wait for them with a core idle.
        async let writtenAudio = writeSmartAudio(plan, directory: directory)
        let pieces = try await renderPieces(decision, parameters: parameters, plan: plan, directory: directory)
        let audioURL = try await writtenAudio
        publish(progress: 0.8)
        let input = SmartRenderWriter.Input(
            source: source, pieces: pieces, audioURL: audioURL, frameDuration: video.frameDuration,
            fileType: plan.fileType, metadata: plan.metadata, optimizeForNetworkUse: plan.optimizeForNetworkUse,
            movieFragmentInterval: plan.movieFragmentInterval, outputURL: output, parameterSetsInBand: decision.parameterSetsInBand, codecTag: decision.codecTag,
            sourceMetadataURL: plan.sourceMetadataURL, subtitles: plan.subtitles, chapters: plan.chapters,
            videoStreamMetadata: plan.videoStreamMetadata, audioStreamMetadata: plan.audioStreamMetadata,
            timedMetadata: plan.timedMetadata)
        let frameCount = video.frameCount
        let failure = try await WorkerThread.run(name: "splice.smart-join") { [self] () -> String? in
            let temporary = try TemporaryOutputFile.make(
                for: output, inPlace: plan.movieFragmentInterval != nil, replacing: plan.overwritesExistingFile)
            do {
                try SmartRenderWriter(input: input, cancellation: cancellation) { [self] in
                    publish(progress: 0.8 + 0.1 * $0)
                }.run(path: temporary.path)
                try SmartRenderVerifier(input: input, frameCount: frameCount, cancellation: cancellation).verify(path: temporary.path)
                if cancellation.isCancelled { throw CancellationError() }
            } catch let failure as SmartRenderVerifier.Failure {
                temporary.discard()
                return failure.description
            } catch {
                temporary.discard()
                throw error
            }
            try temporary.commit(to: output, replacing: plan.overwritesExistingFile)
            return nil
        }
        guard let failure else { return false }
        state.withLock {
            $0.smartRenderReport?.fallback = .verificationFailed(failure)
            $0.smartRenderReport?.audio = nil
        }
        return try await runOnWorkerThread(ordinary)
    }

    /// Renders each run of adjacent re-encoded spans into its own video-only file (one encoder, one IDR picture per
    /// run, whatever the spans' reasons), one after another.
    private func renderPieces(
        _ decision: SmartRenderDecision, parameters: JoinableStreamParameters, plan: ExportPlan, directory: URL
    ) async throws -> [SmartRenderPiece] {
        guard let video = plan.video, let videoSettings = plan.settings.video else { return [] }
        let start = request.withLock { $0.timeRange.start }
        let total = Double(max(video.frameCount, 1))
        var pieces: [SmartRenderPiece] = []
        var ranges: [Int: TimeRange] = [:]  // each encoded piece's composition time, by piece index
        var frame = 0
        for planned in decision.spans {
            let frames = frame..<(frame + planned.span.frameCount)
            frame = frames.upperBound
            if planned.span.action == .copy, let key = planned.sourceKey, let source = decision.sources[key] {
                pieces.append(SmartRenderPiece(
                    content: .copied(source: source.track, groups: Array(source.groups[planned.groups])), frames: frames))
                continue
            }
            let range = TimeRange(start: start + planned.span.timeRange.start, end: start + planned.span.timeRange.end)
            if let last = pieces.indices.last, let run = ranges[last] {
                ranges[last] = TimeRange(start: run.start, end: range.end)
                pieces[last].frames = pieces[last].frames.lowerBound..<frames.upperBound
            } else {
                ranges[pieces.count] = range
                let url = directory.appendingPathComponent("piece-\(pieces.count).\(plan.fileType.rawValue)")
                pieces.append(SmartRenderPiece(content: .encoded(url), frames: frames))
            }
        }
        var rendered = 0
        for (index, piece) in pieces.enumerated() {
            guard case .encoded(let url) = piece.content, let range = ranges[index] else { continue }
            let done = 0.75 * Double(rendered) / total
            rendered += piece.frames.count
            try await renderPart(ExportSettings(video: videoSettings, audio: nil), range: range, to: url,
                                 fileType: plan.fileType, piece: parameters, progress: done...(0.75 * Double(rendered) / total))
        }
        return pieces
    }

    /// Exports `range` of the composition (or of `composition`, made from it) with `settings` into `url` through a
    /// session of its own, cancelled with this one, its progress mapped onto `progress` of this one's (nil: not reported; several parts may run at
    /// once); `piece` set: encoded as a smart-render piece matched to that source.
    func renderPart(
        _ settings: ExportSettings, of composition: MutableComposition? = nil, range: TimeRange, to url: URL,
        fileType: FileType, piece: JoinableStreamParameters?, progress: ClosedRange<Double>?
    ) async throws {
        let request = self.request.withLock { $0 }
        let session = AssetExportSession(asset: composition ?? asset, settings: settings)
        session.outputURL = url
        session.outputFileType = fileType
        session.videoComposition = request.videoComposition
        session.audioMix = request.audioMix
        session.timeRange = range
        session.overwritesExistingFile = true
        session.shouldOptimizeForNetworkUse = false
        session.request.withLock {
            $0.smartRenderPiece = piece
            $0.isPart = true
        }
        if let progress {
            session.state.withLock {
                $0.progressObserver = { [self] value in
                    publish(progress: progress.lowerBound + (progress.upperBound - progress.lowerBound) * value)
                }
            }
        }
        try await exportAsPart(session)
    }
}
