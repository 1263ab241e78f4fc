import Composition
internal import CMedia

/// The one rule every writer of a movie file follows for its container metadata (the export session, the asset
/// writer and the capture movie file output): which keys are written under which name, when the QuickTime `mdta`
/// key space is needed, which locations are refused, and which of a source's items are carried.
///
/// Keys are libavformat's names (`title`, `creation_time`, `location`, `make`, `com.apple.quicktime.make`, …);
/// AVFoundation's common key identifiers that libavformat spells otherwise are renamed to its names
/// (`creationDate` → `creation_time`, `copyrights` → `copyright`, `creator` → `composer`). FFmpeg 5.1's muxers then
/// put each key where its container keeps it:
/// - MP4 and M4A: the iTunes item list (`©nam`, `©ART`, `©cmt`, `desc`, …), the movie header's creation time, and
///   `location` as the 3GPP `loci` box (3GPP TS 26.244: fixed-point numbers, read back as
///   `+48.8584+002.2945+35.000000/`).
/// - MOV: QuickTime user data (`©nam`, `©ART`, `©cmt`, `©mak`, `©mod`, `©xyz` holding the ISO 6709 text as given, …)
///   and the movie header's creation time.
/// - Any key those boxes cannot hold (`make`, `model`, `software` in MP4; `software`, `description` in MOV; a
///   reverse-DNS key such as `com.apple.quicktime.location.ISO6709`; any custom key) turns on the QuickTime `mdta`
///   key space (`movflags=+use_metadata_tags`): then every item is an `mdta` key by its name, its text as given,
///   the creation time is also in the movie header, and a `location` is also a 3GPP `loci` box — in MOV too, which
///   then has no `©xyz` (FFmpeg's `mov` muxer writes user data or `mdta` keys, never both).
/// - Matroska and WebM: every item as a tag, its name in capitals (`LOCATION`).
package enum ContainerMetadata {
    /// A location item whose value is not ISO 6709 text.
    package struct InvalidLocation: Error, Sendable, Hashable, CustomStringConvertible {
        /// The item's key, as given.
        package var key: String
        /// The value refused.
        package var value: String
        /// The key, the value and the form expected.
        package var description: String {
            "metadata '\(key)' = '\(value)' is not an ISO 6709 location (e.g. '+48.8584+002.2945+035.000/': "
                + "signed latitude, signed longitude, optional signed altitude, then '/')"
        }
    }

    /// Keys that describe a file's container or its writer rather than its content: never carried from a source.
    private static let containerKeys: Set<String> = ["major_brand", "minor_version", "compatible_brands", "encoder"]

    /// AVFoundation's common key identifiers (`AVMetadataKey.commonKey…` raw values) that libavformat names otherwise.
    private static let libavformatNames: [String: String] = [
        "creationDate": "creation_time", "copyrights": "copyright", "creator": "composer",
    ]

    /// The keys FFmpeg 5.1's `mp4` (and `ipod`) muxer writes without the `mdta` key space: the iTunes items, the
    /// movie header's creation time and the 3GPP `loci` box.
    private static let mp4Keys: Set<String> = [
        "title", "artist", "album_artist", "album", "composer", "date", "comment", "description", "synopsis", "genre",
        "copyright", "grouping", "lyrics", "keywords", "episode_id", "network", "show", "track", "disc", "encoder",
        "location", "creation_time",
    ]

    /// The keys FFmpeg 5.1's `mov` muxer writes as QuickTime user data without the `mdta` key space, and the movie
    /// header's creation time.
    private static let movKeys: Set<String> = [
        "title", "artist", "author", "album", "date", "comment", "genre", "copyright", "make", "model", "encoder",
        "location", "creation_time",
    ]

    /// `items` as written: keys renamed to libavformat's names where AVFoundation's common key identifier differs.
    package static func written(_ items: [MetadataItem]) -> [MetadataItem] {
        items.map { MetadataItem(key: libavformatNames[$0.key] ?? $0.key, value: $0.value) }
    }

    /// Refuses a location (an item whose ``MetadataItem/commonKey`` is `location`) that is not ISO 6709 text:
    /// latitude then longitude, each signed, in degrees (`+48.8584`), degrees and minutes (`+4851.50`) or degrees,
    /// minutes and seconds (`+485130.2`), an optional signed altitude in metres and an optional `CRS…` part, ended
    /// by `/` (ISO 6709:2008 Annex H, the form QuickTime's `©xyz` and `mdta` location keys hold). Decimal degrees
    /// must lie within ±90 (latitude) and ±180 (longitude).
    /// - Throws: ``InvalidLocation`` naming the first such item's key and value.
    package static func checkLocations(_ items: [MetadataItem]) throws(InvalidLocation) {
        for item in items where item.commonKey == "location" && !isISO6709(item.value) {
            throw InvalidLocation(key: item.key, value: item.value)
        }
    }

    /// Whether `text` is an ISO 6709 point as ``checkLocations(_:)`` describes it.
    package static func isISO6709(_ text: String) -> Bool {
        let pattern = /^([+-])(\d{2}(?:\d{2}(?:\d{2})?)?(?:\.\d+)?)([+-])(\d{3}(?:\d{2}(?:\d{2})?)?(?:\.\d+)?)([+-]\d+(?:\.\d+)?)?(CRS[^\/]*)?\/$/
        guard let match = text.wholeMatch(of: pattern) else { return false }
        // Degrees only when the integer part has two (latitude) or three (longitude) digits.
        let latitude = match.2, longitude = match.4
        if latitude.prefix(while: { $0 != "." }).count == 2, let value = Double(latitude), value > 90 { return false }
        if longitude.prefix(while: { $0 != "." }).count == 3, let value = Double(longitude), value > 180 { return false }
        return true
    }

    /// Whether the muxer `muxerName` (`mp4`, `ipod`, `mov`, …) needs the QuickTime `mdta` key space
    /// (`movflags=+use_metadata_tags`) to keep every one of `items` (as ``written(_:)`` names them): true when a key
    /// is not one its user-data or iTunes boxes hold. Always false for other containers.
    package static func needsMetadataKeySpace(_ items: [MetadataItem], muxerName: String) -> Bool {
        let held: Set<String>
        switch muxerName {
        case "mp4", "ipod": held = mp4Keys
        case "mov": held = movKeys
        default: return false
        }
        return items.contains { !held.contains($0.key) }
    }

    /// A track item the container cannot hold.
    package struct UnsupportedTrackKey: Error, Sendable, Hashable, CustomStringConvertible {
        /// The item's key.
        package var key: String
        /// The muxer (`mp4`, `mov`, …).
        package var muxerName: String
        /// The key, the container and the keys it holds.
        package var description: String {
            "track metadata '\(key)' cannot be written to \(muxerName.uppercased()): FFmpeg's \(muxerName) muxer writes a track's "
                + "'language' (mdhd, ISO 639-2), 'handler_name' (hdlr) and 'title' (the track's user data 'name') only"
        }
    }

    /// The track keys FFmpeg 5.1's `mov`/`mp4` muxer writes: `language` in the media header (`mdhd`), `handler_name`
    /// in the handler (`hdlr`) and `title` as the track's user data `name` (which exiftool reads; FFmpeg 5.1's demuxer
    /// does not read it back). Matroska and WebM write every track key as a tag.
    private static let movTrackKeys: Set<String> = ["language", "handler_name", "title"]

    /// Refuses a track item (an output stream's tag) that the muxer `muxerName` would leave out: in MP4, M4A and MOV
    /// any key but `language`, `handler_name` and `title`; nothing in other containers.
    /// - Throws: ``UnsupportedTrackKey`` naming the first such key.
    package static func checkTrackItems(_ items: [MetadataItem], muxerName: String) throws(UnsupportedTrackKey) {
        guard ["mp4", "ipod", "mov"].contains(muxerName) else { return }
        for item in items where !movTrackKeys.contains(item.key) {
            throw UnsupportedTrackKey(key: item.key, muxerName: muxerName)
        }
    }

    /// The items of a source file's container metadata (`source`, as libavformat read them) that a new file made
    /// from it carries beneath `items` (which win): a source item is left out when one of `items` has its raw key
    /// or its common key, when it describes the container or its writer (`major_brand`, `minor_version`,
    /// `compatible_brands`, `encoder`), or when it is a language variant (`location-eng`) of a key also present
    /// without one.
    package static func carried(from source: [(key: String, value: String)], under items: [MetadataItem]) -> [MetadataItem] {
        let sourceKeys = Set(source.map { $0.key.lowercased() })
        let setKeys = Set(items.map { $0.key.lowercased() })
        let setCommonKeys = Set(items.compactMap(\.commonKey))
        return source.compactMap { entry in
            let item = MetadataItem(key: entry.key, value: entry.value)
            let base = MetadataItem.baseKey(entry.key)
            if containerKeys.contains(base.lowercased()) || setKeys.contains(base.lowercased()) { return nil }
            if base != entry.key && sourceKeys.contains(base.lowercased()) { return nil }
            if let common = item.commonKey, setCommonKeys.contains(common) { return nil }
            return item
        }
    }
}

extension OutputFile {
    /// Sets the container metadata by ``ContainerMetadata``'s rule (`items` renamed by
    /// ``ContainerMetadata/written(_:)``, `av_dict_set` on the format context), before the header.
    /// - Returns: whether the header needs `movflags=+use_metadata_tags`
    ///   (``ContainerMetadata/needsMetadataKeySpace(_:muxerName:)`` for this file's muxer).
    @discardableResult
    package func setContainerMetadata(_ items: [MetadataItem]) -> Bool {
        let written = ContainerMetadata.written(items)
        setMetadata(written.map { ($0.key, $0.value) })
        return ContainerMetadata.needsMetadataKeySpace(written, muxerName: muxerName)
    }

    /// Sets stream `index`'s tags to `items` (`av_dict_set` on the stream, before the header); the caller has
    /// checked them with ``ContainerMetadata/checkTrackItems(_:muxerName:)``.
    package func setTrackMetadata(_ items: [MetadataItem], onStream index: Int) {
        setMetadata(items.map { ($0.key, $0.value) }, ofStream: index)
    }

    /// The muxer's short name (`AVOutputFormat.name`: `mp4`, `mov`, `ipod`, `matroska`, `webm`, …).
    package var muxerName: String { String(cString: pointer.pointee.oformat.pointee.name) }
}
