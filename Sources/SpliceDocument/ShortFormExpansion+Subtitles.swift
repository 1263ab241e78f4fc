import Composition

extension ShortFormExpansion {
    /// The clips' subtitle track (`mediaType` ``Composition/MediaType/subtitle``) or timed metadata track
    /// (``Composition/MediaType/metadata``): each clip's source's first decodable track of that type over the part of
    /// the clip it covers, moved and retimed with the clip's picture. A clip after a transition brings its cues or
    /// groups from the end of the transition (the previous clip's show until then: one track holds no overlapping
    /// segments); still images and held, ramped or reversed clips bring none (such segments show none). Nil when no
    /// clip brings any.
    func clipTimedTrack(_ mediaType: MediaType, _ placed: [PlacedClip], trackID: Int32) -> DocumentTrack? {
        var segments: [DocumentSegment] = []
        for clip in placed {
            guard !clip.isStill, clip.clip.freezeFrame == nil, clip.clip.speedRamp == nil, clip.clip.reverse != true,
                  let text = clip.asset.tracks(withMediaType: mediaType).first(where: \.isDecodable) else { continue }
            let (numerator, denominator) = clip.speed
            let skipped = clip.transitionIn.multiplied(byRatio: numerator, over: denominator)
            let wanted = TimeRange(start: clip.sourceRange.start + skipped, end: clip.sourceRange.end)
            let available = wanted.intersection(text.timeRange)
            guard available.isValid, available.duration > .zero else { continue }
            let at = clip.start + (available.start - clip.sourceRange.start).multiplied(byRatio: denominator, over: numerator)
            let output = available.duration.multiplied(byRatio: denominator, over: numerator)
            segments.append(DocumentSegment(
                source: clip.clip.source, track: .trackID(text.trackID), timeRange: available, at: at,
                toDuration: output == available.duration ? nil : output))
        }
        return segments.isEmpty ? nil : DocumentTrack(trackID: trackID, mediaType: mediaType, segments: segments)
    }

    /// One subtitle track per entry of the document's `subtitles`, IDs from `firstTrackID`: the file's first
    /// subtitle track whole from time 0, in the entry's language. A file whose last cue ends after the clips
    /// lengthens the composition, which lasts as its longest track (AVFoundation's rule, as for any composition).
    mutating func sidecarSubtitleTracks(firstTrackID: Int32) -> [DocumentTrack] {
        var tracks: [DocumentTrack] = []
        for (index, entry) in (document.subtitles ?? []).enumerated() {
            let path = DocumentPath("subtitles").appending(index)
            guard let asset = assets[entry.source] else {
                problems.add(path.appending("source"), "'\(entry.source)' was not loaded")
                continue
            }
            guard let text = asset.tracks(withMediaType: .subtitle).first else {
                let listing = asset.tracks.map { "\($0.trackID) (\($0.mediaType.rawValue))" }.joined(separator: ", ")
                problems.add(path.appending("source"), "'\(entry.source)' has no subtitle track; it has tracks \(listing)")
                continue
            }
            if let language = entry.language, !(language.count == 3 && language.allSatisfy { $0.isASCII && $0.isLowercase }) {
                problems.add(path.appending("language"), "'\(language)' is not an ISO 639-2 code (three lowercase letters, such as \"eng\")")
                continue
            }
            let range = text.timeRange
            let segments = range.isValid && range.duration > .zero
                ? [DocumentSegment(source: entry.source, track: .trackID(text.trackID), timeRange: range, at: .zero)] : []
            tracks.append(DocumentTrack(trackID: firstTrackID + Int32(tracks.count), mediaType: .subtitle,
                                        segments: segments, languageCode: entry.language))
        }
        return tracks
    }
}
