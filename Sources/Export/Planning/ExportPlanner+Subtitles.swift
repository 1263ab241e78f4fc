import Composition

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
                languageCode: first?.languageCode, title: first?.subtitle?.title,
                isDefault: first?.subtitle?.isDefault ?? false, isForced: first?.subtitle?.isForced ?? false)
        }
    }
}
