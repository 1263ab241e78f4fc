import Foundation
import SpliceFFmpeg
import Composition

extension AssetExportSession {
    /// Writes one subtitle track of the composition alone, as a sidecar text file beside an export: SubRip (`.srt`),
    /// WebVTT (`.vtt`) or ASS (`.ass`, `.ssa`), chosen by `url`'s extension.
    ///
    /// The cues are placed as ``export()`` places them in a movie (clipped by cuts, moved by ripples and empty ranges,
    /// scaled with `scaleTimeRange`, over ``timeRange`` moved to start at 0, in milliseconds) and written by
    /// libavcodec's text encoder and libavformat's `srt`, `webvtt` or `ass` muxer, UTF-8. The file is written beside
    /// `url` under a temporary name and renamed when complete: a failed or cancelled write leaves nothing. An existing
    /// file is refused unless ``overwritesExistingFile`` is set. Independent of ``export()``: either may come first,
    /// and neither changes the session's ``status``.
    /// - Parameters:
    ///   - trackID: a subtitle track of ``asset``.
    ///   - url: the file to write (a file URL ending in `.srt`, `.vtt`, `.ass` or `.ssa`).
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` for another extension; ``ExportError/invalidComposition(_:)``
    ///   when `trackID` names no subtitle track, the composition is empty, ``timeRange`` lies outside it, or the
    ///   track shows no cue in it; ``ExportError/outputFileExists(_:)``; ``ExportError/outputNotWritable(_:reason:)``;
    ///   ``ExportError/sourceUnreadable(_:reason:)`` for a source whose cues cannot be read; the write errors of
    ///   ``export()``; `CancellationError` when the task is cancelled.
    public func exportSubtitles(ofTrackWithID trackID: Int32, to url: URL) async throws {
        let codec: SubtitleCodec
        switch url.pathExtension.lowercased() {
        case "srt": codec = .subRip
        case "vtt": codec = .webVTT
        case "ass", "ssa": codec = .ass
        default:
            throw ExportError.unsupportedSettings(
                "cannot tell the subtitle format from '\(url.lastPathComponent)'; use .srt, .vtt or .ass")
        }
        guard url.isFileURL else { throw ExportError.outputNotWritable(url, reason: "only file URLs can be written") }
        guard let track = asset.tracks.first(where: { $0.trackID == trackID }) else {
            throw ExportError.invalidComposition("the composition has no track \(trackID) to write subtitles from")
        }
        guard track.mediaType == .subtitle else {
            throw ExportError.invalidComposition(
                "track \(trackID) is a \(track.mediaType.rawValue) track; only a subtitle track can be written as subtitles")
        }
        let request = self.request.withLock { $0 }
        let planner = ExportPlanner(composition: asset, settings: settings, preset: preset, request: request)
        let duration = asset.duration
        guard duration.isNumeric, duration > .zero else {
            throw ExportError.invalidComposition("the composition is empty (duration \(duration))")
        }
        let range = try planner.exportRange(duration: duration)
        if !request.overwritesExistingFile, FileManager.default.fileExists(atPath: url.path) {
            throw ExportError.outputFileExists(url)
        }
        let plan = SubtitleTrackPlan(
            trackID: trackID, track: RenderTrack(track, exporting: range), codec: codec, languageCode: nil, title: nil,
            isDefault: false, isForced: false)
        let cancellation = CancellationFlag()
        try await withTaskCancellationHandler {
            try await WorkerThread.run(name: "splice.subtitles") {
                try Self.writeSubtitleFile(plan, to: url, cancellation: cancellation)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Writes `plan` to a temporary file beside `url`, then renames it to `url`.
    private static func writeSubtitleFile(_ plan: SubtitleTrackPlan, to url: URL, cancellation: CancellationFlag) throws {
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ExportError.outputNotWritable(url, reason: "the folder \(folder.path) does not exist")
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        defer { try? FileManager.default.removeItem(at: temporary) }
        guard try SubtitleWriter.writeFile(plan, to: temporary.path, cancellation: cancellation) else {
            throw ExportError.invalidComposition("subtitle track \(plan.trackID) shows no cue in the export range")
        }
        if cancellation.isCancelled { throw CancellationError() }
        guard rename(temporary.path, url.path) == 0 else {
            throw ExportError.outputNotWritable(url, reason: String(cString: strerror(errno)))
        }
    }
}
