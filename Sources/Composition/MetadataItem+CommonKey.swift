import Foundation

extension MetadataItem {
    /// AVFoundation's common key (`AVMetadataKey.commonKey…` raw values: `title`, `creationDate`, `location`, `make`,
    /// `model`, `software`, `description`, `artist`, `author`, `copyrights`, `album`, `creator`, `publisher`) that
    /// this item's raw key stands for, or nil when the key has none (a custom key, `major_brand`, …).
    ///
    /// The raw keys are libavformat's names for the containers' key spaces: QuickTime `mdta`
    /// (`com.apple.quicktime.location.ISO6709`, …), QuickTime and ISO user data (`©xyz` read as `location`, `©day`
    /// as `date`, `©mak` as `make`, …), the movie header (`creation_time`), iTunes (`©nam` as `title`) and Matroska
    /// tags (`TITLE`, `DATE_RECORDED`, …). Keys compare without regard to case; a language suffix (`location-eng`)
    /// is ignored.
    public var commonKey: String? {
        Self.commonKeys[Self.baseKey(key).lowercased()]
    }

    /// `key` without a trailing ISO 639-2 language suffix (`location-eng` → `location`), as libavformat appends to
    /// user-data strings that carry a language.
    public static func baseKey(_ key: String) -> String {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count > 1, let last = parts.last, last.count == 3, last.allSatisfy({ $0.isLowercase && $0.isASCII })
        else { return key }
        return String(key.dropLast(4))
    }

    /// Raw keys (lowercased) to common keys.
    private static let commonKeys: [String: String] = [
        "title": "title", "com.apple.quicktime.title": "title",
        "creation_time": "creationDate", "date": "creationDate", "com.apple.quicktime.creationdate": "creationDate",
        "date_recorded": "creationDate",
        "location": "location", "com.apple.quicktime.location.iso6709": "location",
        "make": "make", "com.apple.quicktime.make": "make",
        "model": "model", "com.apple.quicktime.model": "model",
        "software": "software", "com.apple.quicktime.software": "software",
        "description": "description", "comment": "description", "com.apple.quicktime.description": "description",
        "artist": "artist", "com.apple.quicktime.artist": "artist",
        "author": "author", "com.apple.quicktime.author": "author",
        "copyright": "copyrights", "com.apple.quicktime.copyright": "copyrights",
        "album": "album", "com.apple.quicktime.album": "album",
        "composer": "creator", "com.apple.quicktime.creator": "creator",
        "publisher": "publisher", "com.apple.quicktime.publisher": "publisher",
    ]
}

extension Asset {
    /// The items of ``metadata`` that have a common key (``MetadataItem/commonKey``), in file order, as
    /// `AVAsset.commonMetadata`; each keeps its raw key.
    public var commonMetadata: [MetadataItem] {
        metadata.filter { $0.commonKey != nil }
    }
}
