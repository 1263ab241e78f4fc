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
