internal import CMedia

/// The entries of an FFmpeg metadata dictionary (`AVDictionary`: a container's, a stream's or a chapter's tags).
package enum MetadataDictionary {
    /// Every entry of `dictionary`, as key/value pairs in FFmpeg's order (`av_dict_get` with an empty key and
    /// `AV_DICT_IGNORE_SUFFIX`); none for a nil dictionary. The dictionary is only read.
    package static func entries(_ dictionary: OpaquePointer?) -> [(key: String, value: String)] {
        var items: [(key: String, value: String)] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key else { continue }
            items.append((String(cString: key), next.pointee.value.map { String(cString: $0) } ?? ""))
        }
        return items
    }
}
