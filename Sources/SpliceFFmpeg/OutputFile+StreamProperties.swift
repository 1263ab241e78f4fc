internal import CMedia

extension OutputFile {
    /// Sets metadata of stream `index` (`av_dict_set` on `AVStream.metadata`): `language` (ISO 639-2), which movenc
    /// writes in the track's `mdhd` and Matroska as the track's language, `title`, `handler_name`. Call before
    /// ``writeHeader(options:)``. An unknown index sets nothing.
    package func setMetadata(_ items: [(String, String)], ofStream index: Int) {
        guard index >= 0, index < Int(pointer.pointee.nb_streams), let stream = pointer.pointee.streams[index] else { return }
        for (key, value) in items { av_dict_set(&stream.pointee.metadata, key, value, 0) }
    }

    /// Marks stream `index` as the default track of its kind and/or as holding forced subtitles
    /// (`AV_DISPOSITION_DEFAULT`, `AV_DISPOSITION_FORCED`); call before ``writeHeader(options:)``.
    package func setDisposition(isDefault: Bool, isForced: Bool, ofStream index: Int) {
        guard index >= 0, index < Int(pointer.pointee.nb_streams), let stream = pointer.pointee.streams[index] else { return }
        var disposition: Int32 = 0
        if isDefault { disposition |= AV_DISPOSITION_DEFAULT }
        if isForced { disposition |= AV_DISPOSITION_FORCED }
        stream.pointee.disposition = disposition
    }
}
