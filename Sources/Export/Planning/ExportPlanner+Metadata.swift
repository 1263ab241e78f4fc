import Composition
import Foundation
import SpliceFFmpeg

extension ExportPlanner {
    /// Refuses a ``ExportRequest/metadata`` location (an item whose common key is `location`) that is not ISO 6709
    /// text, by the rule every writer shares (SpliceFFmpeg's `ContainerMetadata.checkLocations`).
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the key and the value.
    func checkMetadataLocations() throws {
        do {
            try ContainerMetadata.checkLocations(request.metadata)
        } catch {
            throw ExportError.unsupportedSettings(error.description)
        }
    }
}

extension ExportPlanner {
    /// The tags of the output's stream made from `tracks` (the enabled tracks of one media type with media): the
    /// first track's ``CompositionTrack/metadata`` and ``CompositionTrack/languageCode`` over, when
    /// ``ExportRequest/carriesSourceMetadata``, the `handler_name` and language of the source track its first segment
    /// in `range` plays (as the container's items are carried from the first source). Empty when there is none.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming the track and the key when the container's tracks
    ///   cannot hold one of the track's items (SpliceFFmpeg's `ContainerMetadata.checkTrackItems`).
    func streamMetadata(of tracks: [CompositionTrack], range: TimeRange, fileType: FileType) throws -> [MetadataItem] {
        guard let track = tracks.first else { return [] }
        var items: [MetadataItem] = []
        if request.carriesSourceMetadata, let source = track.segments.first(where: { segment in
            !segment.isEmpty && segment.timeMapping.target.end > range.start && segment.timeMapping.target.start < range.end
        })?.sourceTrack {
            if let handler = source.metadata?.first(where: { $0.key.lowercased() == "handler_name" }) {
                items.append(MetadataItem(key: "handler_name", value: handler.value))
            }
            if let language = source.languageCode { items.append(MetadataItem(key: "language", value: language)) }
        }
        var own = track.metadata
        if let language = track.languageCode { own.removeAll { $0.key == "language" }; own.append(MetadataItem(key: "language", value: language)) }
        do {
            try ContainerMetadata.checkTrackItems(own, muxerName: fileType.muxerName)
        } catch {
            throw ExportError.unsupportedSettings("track \(track.trackID): \(error.description)")
        }
        let ownKeys = Set(own.map(\.key))
        return items.filter { !ownKeys.contains($0.key) } + own
    }
}

extension ExportPlanner {
    /// The timed metadata tracks the export writes: the requested groups (``timedMetadata(in:fileType:)``) when any
    /// were asked for; else the composition's enabled metadata tracks with media, on the export's clock, in MP4 and
    /// MOV files (the containers a timed metadata track is written to: other file types leave them out, as an `.m4a`
    /// file leaves out subtitle tracks).
    /// - Throws: as ``timedMetadata(in:fileType:)``.
    func timedMetadataPlan(in range: TimeRange, fileType: FileType) throws -> TimedMetadataPlan {
        guard request.timedMetadataGroups.isEmpty else {
            return TimedMetadataPlan(requested: try timedMetadata(in: range, fileType: fileType))
        }
        guard fileType == .mp4 || fileType == .mov else { return TimedMetadataPlan() }
        let tracks = composition.tracks(withMediaType: .metadata).filter { $0.isEnabled && $0.segments.contains { !$0.isEmpty } }
        return TimedMetadataPlan(tracks: tracks.map { RenderTrack($0, exporting: range) })
    }

    /// A fragmented movie cannot carry a timed metadata track: the track is a `mov_text` text track, and FFmpeg 5.1's
    /// `mov` muxer, ending text samples in fragments, aborts the process (`Assertion next_dts >= 0 failed` in
    /// `movenc.c`). Checked for the session's groups (those left inside the export range) and for the composition's
    /// metadata tracks cut from Splice's own timed metadata tracks (`mov_text`; QuickTime's boxed metadata, `mebx`,
    /// is not written, so it does not count).
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming `movieFragmentInterval` and the timed metadata.
    func checkFragmentedTimedMetadata(_ plan: TimedMetadataPlan, interval: MediaTime?) throws {
        guard let interval else { return }
        let written = plan.tracks.first { track in track.segments.contains { $0.source?.codecName == "mov_text" } }
        let what = if !plan.requested.isEmpty { "timedMetadataGroups" }
            else if let written { "metadata track \(written.trackID)" }
            else { "" }
        guard !what.isEmpty else { return }
        throw ExportError.unsupportedSettings(
            "movieFragmentInterval \(interval.secondsText) cannot be combined with \(what), written as a timed metadata "
                + "track: FFmpeg's fragmented movie muxer cannot end its samples; export a regular movie, or leave the "
                + "timed metadata out")
    }

    /// The export's timed metadata groups on the output's clock: each clipped to `range` and moved so `range.start`
    /// is 0; groups wholly outside it are left out.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` for a group whose range is invalid or empty, or when
    ///   `fileType` is not MP4 or MOV (the containers a timed metadata track is written to).
    func timedMetadata(in range: TimeRange, fileType: FileType) throws -> [TimedMetadataGroup] {
        guard !request.timedMetadataGroups.isEmpty else { return [] }
        guard fileType == .mp4 || fileType == .mov else {
            throw ExportError.unsupportedSettings(
                "timedMetadataGroups are written as a timed metadata track in .mp4 or .mov files; a .\(fileType.rawValue) file cannot hold one")
        }
        return try request.timedMetadataGroups.enumerated().compactMap { index, group in
            guard group.timeRange.isValid, group.timeRange.start.isNumeric, group.timeRange.end.isNumeric,
                  group.timeRange.duration > .zero else {
                throw ExportError.unsupportedSettings(
                    "timedMetadataGroups[\(index)] has the range \(group.timeRange); a group needs a finite range longer than 0 s")
            }
            let clipped = group.timeRange.intersection(range)
            guard clipped.isValid, clipped.duration > .zero else { return nil }
            return TimedMetadataGroup(
                timeRange: TimeRange(start: clipped.start - range.start, duration: clipped.duration), items: group.items)
        }
    }
}
