import Composition
import Foundation

/// The movie-level metadata a ``CaptureMovieFileOutput`` writes: AVFoundation's `metadata` of a movie file output,
/// with its common keys title (`commonKeyTitle`), creation date (`commonKeyCreationDate`) and location
/// (`commonKeyLocation`, ISO 6709) as typed values, and any other items (make, model, software, custom keys) in
/// ``items``. They become libavformat's container keys `title`, `creation_time` and `location` (then ``items``),
/// written by the rule the export session and the asset writer share: the movie header's creation time (whole
/// seconds) in both containers; in MOV QuickTime user data `©nam` and `©xyz` (the ISO 6709 text as given); in MP4
/// an iTunes `©nam` item and the 3GPP `loci` box (3GPP TS 26.244: latitude, longitude and altitude as fixed-point
/// numbers, which read back as `+48.8584+002.2945+35.000000/`). An item that neither container's boxes hold
/// (`make` in MP4, `software`, a custom key such as `com.example.take`) puts every item in the QuickTime `mdta`
/// key space (`use_metadata_tags`), where the location is a `loci` box in both containers (no `©xyz`). They are
/// in the file from its first fragment on, and kept when a clean stop rewrites it as a regular movie.
public struct CaptureMovieMetadata: Sendable, Hashable {
    /// A place on Earth (WGS 84), as ISO 6709 text in the form QuickTime's `©xyz` holds it:
    /// `+48.8584+002.2945+035.000/` (MP4 gets the same numbers in a 3GPP `loci` box).
    public struct Location: Sendable, Hashable {
        /// A latitude outside −90…90°, a longitude outside −180…180°, or a value that is not finite.
        public struct InvalidLocation: Error, Hashable, CustomStringConvertible {
            /// The values given, degrees.
            public var latitude: Double, longitude: Double
            /// The values and the ranges.
            public var description: String {
                "location \(latitude), \(longitude) is not on Earth: latitude must be within −90…90° and longitude within −180…180°"
            }
        }

        /// Degrees north (negative: south), −90…90.
        public let latitude: Double
        /// Degrees east (negative: west), −180…180.
        public let longitude: Double
        /// Metres above the WGS 84 ellipsoid, or nil when unknown.
        public let altitude: Double?

        /// A location, checked.
        /// - Throws: ``InvalidLocation`` for a latitude outside −90…90°, a longitude outside −180…180°, or a value
        ///   (altitude included) that is not finite.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil) throws(InvalidLocation) {
            guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
                  altitude?.isFinite ?? true else {
                throw InvalidLocation(latitude: latitude, longitude: longitude)
            }
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }

        /// ISO 6709 as QuickTime writes it: ±DD.DDDD±DDD.DDDD, then ±altitude in metres when known, then `/`.
        public var iso6709: String {
            var text = String(format: "%+08.4f%+09.4f", latitude, longitude)
            if let altitude { text += String(format: "%+08.3f", altitude) }
            return text + "/"
        }
    }

    /// The movie's title; nil for none.
    public var title: String?
    /// When the recording was made; nil: the moment recording starts.
    public var creationDate: Date?
    /// Where it was made; nil for none.
    public var location: Location?

    /// Further items by libavformat's keys, written after the title, creation date and location: `make`, `model`,
    /// `software`, `comment`, reverse-DNS keys such as `com.example.take`, … (an item with the key `title`,
    /// `creation_time` or `location` is written as well, after the typed value). A `location` item (by common key)
    /// must be ISO 6709 text: otherwise the recording does not start and ends with
    /// ``CaptureRecordingError/invalidMetadata(key:value:reason:)``. Empty by default.
    public var items: [MetadataItem]

    /// Metadata with the given values (all optional).
    public init(title: String? = nil, creationDate: Date? = nil, location: Location? = nil, items: [MetadataItem] = []) {
        self.title = title
        self.creationDate = creationDate
        self.location = location
        self.items = items
    }

    /// The container items for these values, the creation date defaulting to `now` (ISO 8601 UTC with microseconds,
    /// as FFmpeg writes `creation_time`), then ``items``.
    func tags(now: Date) -> [MetadataItem] {
        var tags: [MetadataItem] = []
        if let title { tags.append(MetadataItem(key: "title", value: title)) }
        let date = creationDate ?? now
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let micros = Int((date.timeIntervalSince1970 - Double(seconds)) * 1_000_000)
        tags.append(MetadataItem(key: "creation_time", value: String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, micros)))
        if let location { tags.append(MetadataItem(key: "location", value: location.iso6709)) }
        return tags + items
    }
}
