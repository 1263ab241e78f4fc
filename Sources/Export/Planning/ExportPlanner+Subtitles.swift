import SpliceFFmpeg
import Composition
import VideoComposition

extension ExportPlanner {
    /// The subtitle tracks an export writes: every enabled composition subtitle track with cues, clipped to `range`,
    /// in `codec` or the container's preferred one (``SubtitleCodec/preferred(in:sourceCodecs:)``). An `.m4a` file
    /// takes none.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` when `codec` is one the container cannot hold.
    func makeSubtitlePlans(range: TimeRange, fileType: FileType, codec: SubtitleCodec?) throws -> [SubtitleTrackPlan] {
        if let codec, !SubtitleCodec.allowed(in: fileType).contains(codec) {
            let allowed = SubtitleCodec.allowed(in: fileType).map(\.rawValue)
            throw ExportError.unsupportedSettings(
                "a .\(fileType.rawValue) file cannot hold \(codec.rawValue) subtitles"
                    + (allowed.isEmpty ? " (it holds sound only)" : "; it holds \(allowed.joined(separator: ", "))"))
        }
        let tracks = composition.tracks(withMediaType: .subtitle).filter { $0.isEnabled && $0.segments.contains { !$0.isEmpty } }
        guard !tracks.isEmpty, !SubtitleCodec.allowed(in: fileType).isEmpty else { return [] }
        return tracks.compactMap { track in
            let sources = track.segments.compactMap(\.sourceTrack)
            guard let chosen = codec ?? SubtitleCodec.preferred(in: fileType, sourceCodecs: sources.map(\.codecName)) else {
                return nil
            }
            let first = sources.first
            return SubtitleTrackPlan(
                trackID: track.trackID, track: RenderTrack(track, exporting: range), codec: chosen,
                languageCode: track.languageCode ?? first?.languageCode, title: first?.subtitle?.title,
                isDefault: first?.subtitle?.isDefault ?? false, isForced: first?.subtitle?.isForced ?? false)
        }
    }

    /// The plan of the subtitle track a video composition burns in: the track on the export's clock, written as ASS
    /// for libass.
    /// - Throws: ``ExportError/invalidComposition(_:)`` when `burnIn` names no subtitle track of the composition or
    ///   its style has a problem (``VideoComposition/SubtitleStyle/problem``); ``ExportError/filterUnavailable(_:)``
    ///   when the linked FFmpeg has no `ass` filter (built without libass), or no `subtitles` filter for a style.
    func subtitleBurnInPlan(_ burnIn: SubtitleBurnIn, range: TimeRange) throws -> SubtitleTrackPlan {
        guard let track = composition.tracks.first(where: { $0.trackID == burnIn.trackID }) else {
            throw ExportError.invalidComposition(
                "subtitleBurnIn names track \(burnIn.trackID), and the composition has no track with that ID")
        }
        guard track.mediaType == .subtitle else {
            throw ExportError.invalidComposition(
                "subtitleBurnIn names track \(burnIn.trackID), a \(track.mediaType.rawValue) track; only a subtitle track can be burnt in")
        }
        if let problem = burnIn.style?.problem {
            throw ExportError.invalidComposition("subtitleBurnIn.style: \(problem)")
        }
        guard MediaLibrary.hasFilter(named: "ass") else { throw ExportError.filterUnavailable("ass") }
        if burnIn.style != nil, !MediaLibrary.hasFilter(named: "subtitles") { throw ExportError.filterUnavailable("subtitles") }
        return SubtitleTrackPlan(
            trackID: track.trackID, track: RenderTrack(track, exporting: range), codec: .ass, languageCode: nil,
            title: nil, isDefault: false, isForced: false)
    }

    /// The export's chapters: the requested ones (``chapters(in:)``) when any were asked for; else, unless
    /// ``AssetExportSession/carriesSourceMetadata`` is false, the chapters of the sources of the first enabled video
    /// track with media (else audio track), carried through its segments.
    /// - Throws: as ``chapters(in:)``.
    func chapterPlan(in range: TimeRange) throws -> ChapterPlan {
        guard request.chapterMetadataGroups.isEmpty else { return ChapterPlan(requested: try chapters(in: range)) }
        guard request.carriesSourceMetadata else { return ChapterPlan() }
        func first(_ mediaType: MediaType) -> CompositionTrack? {
            composition.tracks(withMediaType: mediaType).first { $0.isEnabled && $0.segments.contains { !$0.isEmpty } }
        }
        guard let track = first(.video) ?? first(.audio) else { return ChapterPlan() }
        return ChapterPlan(carriedThrough: RenderTrack(track, exporting: range))
    }

    /// The export's requested chapters on the output's clock: each requested chapter clipped to `range` and moved so
    /// `range.start` is 0; chapters wholly outside it are left out.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` for a chapter whose range is invalid or empty.
    func chapters(in range: TimeRange) throws -> [TimedMetadataGroup] {
        try request.chapterMetadataGroups.compactMap { group in
            guard group.timeRange.isValid, group.timeRange.start.isNumeric, group.timeRange.end.isNumeric,
                  group.timeRange.duration > .zero else {
                throw ExportError.unsupportedSettings(
                    "chapter \(group.title.map { "'\($0)'" } ?? "") has the range \(group.timeRange); a chapter needs a finite range longer than 0 s")
            }
            let clipped = group.timeRange.intersection(range)
            guard clipped.isValid, clipped.duration > .zero else { return nil }
            return TimedMetadataGroup(
                timeRange: TimeRange(start: clipped.start - range.start, duration: clipped.duration), items: group.items)
        }
    }
}
