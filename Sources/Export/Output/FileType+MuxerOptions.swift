extension FileType {
    /// The muxer options every writer of this container uses (package access: AssetIO's writer uses them too).
    ///
    /// MP4, MOV and M4A: `movflags=+faststart` when `optimizeForNetworkUse` (the `moov` box moved to the front after
    /// writing), and `movie_timescale` = `movieTimescale` when given, because edit lists and track durations are
    /// written in the movie timescale (1000 by default: whole milliseconds); the audio rate or the video clock keeps
    /// them exact to the sample or frame; `movflags=+use_metadata_tags` when `metadataKeySpace` (metadata written in
    /// the QuickTime `mdta` key space, so reverse-DNS keys such as `com.apple.quicktime.location.ISO6709` are kept).
    /// Other containers: none.
    package func muxerOptions(
        optimizeForNetworkUse: Bool, movieTimescale: Int32? = nil, metadataKeySpace: Bool = false
    ) -> [String: String] {
        guard [.mp4, .mov, .m4a].contains(self) else { return [:] }
        var options: [String: String] = [:]
        let flags = (optimizeForNetworkUse ? "+faststart" : "") + (metadataKeySpace ? "+use_metadata_tags" : "")
        if !flags.isEmpty { options["movflags"] = flags }
        if let movieTimescale { options["movie_timescale"] = "\(movieTimescale)" }
        return options
    }
}
