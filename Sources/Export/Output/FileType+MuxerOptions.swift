extension FileType {
    /// The muxer options every writer of this container uses (package access: AssetIO's writer uses them too).
    ///
    /// MP4, MOV and M4A: `movflags=+faststart` when `optimizeForNetworkUse` (the `moov` box moved to the front after
    /// writing), and `movie_timescale` = `movieTimescale` when given, because edit lists and track durations are
    /// written in the movie timescale (1000 by default: whole milliseconds); the audio rate or the video clock keeps
    /// them exact to the sample or frame. Other containers: none.
    package func muxerOptions(optimizeForNetworkUse: Bool, movieTimescale: Int32? = nil) -> [String: String] {
        guard [.mp4, .mov, .m4a].contains(self) else { return [:] }
        var options: [String: String] = [:]
        if optimizeForNetworkUse { options["movflags"] = "+faststart" }
        if let movieTimescale { options["movie_timescale"] = "\(movieTimescale)" }
        return options
    }
}
