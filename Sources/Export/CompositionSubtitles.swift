import Foundation
import Composition
import SpliceFFmpeg

/// A composition's subtitle tracks as an export writes them, for a streaming package's text renditions: the tracks
/// an export into Matroska would carry (enabled, with media), with their language, name and default/forced flags,
/// their cues placed by the export's rule (``SourceTimePlacement``) and written as WebVTT by the export's subtitle
/// writer (libavcodec's `webvtt` encoder, libavformat's `webvtt` muxer). Plain data.
package struct CompositionSubtitles: Sendable {
    /// One subtitle track and what a manifest says of it.
    package struct Track: Sendable, Hashable {
        /// The composition track's ID.
        package var trackID: Int32
        /// ISO 639-2 language (`eng`): the track's own, else its first source's; nil when neither states one.
        package var languageCode: String?
        /// The first source's track title, if any.
        package var title: String?
        /// The first source's `default` disposition.
        package var isDefault: Bool
        /// The first source's `forced` disposition.
        package var isForced: Bool
    }

    private let plans: [SubtitleTrackPlan]

    /// The subtitle tracks, in the composition's order.
    package var tracks: [Track] {
        plans.map {
            Track(trackID: $0.trackID, languageCode: $0.languageCode, title: $0.title, isDefault: $0.isDefault, isForced: $0.isForced)
        }
    }

    /// The subtitle tracks of `composition` over `timeRange` (none when it has none): cues outside it are left out and
    /// a cue crossing its end is cut there, as an export of that range cuts them.
    /// - Parameter timeRange: the programme's range on the composition's timeline; nil: its whole duration.
    /// - Throws: ``ExportError/invalidComposition(_:)`` when the composition is empty or the range lies outside it.
    package init(composition: MutableComposition, timeRange: TimeRange? = nil) throws {
        let range = try CompositionVideoRendering.clipped(timeRange ?? TimeRange(start: .zero, duration: composition.duration),
                                                          to: composition)
        plans = try ExportPlanner(composition: composition, settings: nil, preset: nil, request: ExportRequest())
            .makeSubtitlePlans(range: range, fileType: .mkv, codec: .webVTT)
    }

    /// Writes track `trackID` as WebVTT files (UTF-8): `urls[k]` holds every cue overlapping `windows[k]`
    /// (programme time), each with its whole time on the programme's timeline — a cue crossing a window's edge is in
    /// both files, with the same times — and `headerLines` after the `WEBVTT` line; `whole` (if any) holds every
    /// cue, without the header lines.
    /// - Returns: false (and no file) when the track shows no cue.
    /// - Throws: ``ExportError/invalidComposition(_:)`` when `trackID` is not one of ``tracks`` or the counts of
    ///   `windows` and `urls` differ; ``ExportError/sourceUnreadable(_:reason:)``; the write errors of an export;
    ///   `CancellationError`.
    package func writeWebVTT(trackID: Int32, windows: [TimeRange], to urls: [URL], headerLines: [String], whole: URL?,
                             cancellation: CancellationFlag) throws -> Bool {
        guard let plan = plans.first(where: { $0.trackID == trackID }), windows.count == urls.count else {
            throw ExportError.invalidComposition("no subtitle track \(trackID) with one file per window to write")
        }
        guard let placed = try SubtitleWriter.place([plan], cancellation: cancellation).first else { return false }
        for (window, url) in zip(windows, urls) {
            if cancellation.isCancelled { throw CancellationError() }
            let start = SourceTimePlacement.milliseconds(window.start), end = SourceTimePlacement.milliseconds(window.end)
            var part = placed
            part.cues = placed.cues.filter { $0.start < end && $0.end > start }
            try SubtitleWriter.writeFile(part, to: url.path, cancellation: cancellation)
            guard !headerLines.isEmpty else { continue }
            do {
                var text = try FileContents.utf8Text(of: url)
                let firstLine = text.firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex
                text.insert(contentsOf: headerLines.map { $0 + "\n" }.joined(), at: firstLine)
                try Data(text.utf8).write(to: url)
            } catch {
                throw ExportError.outputNotWritable(url, reason: FailureReason.words(for: error))
            }
        }
        if let whole { try SubtitleWriter.writeFile(placed, to: whole.path, cancellation: cancellation) }
        return true
    }
}
