import Composition

extension FileType {
    /// The muxer options every writer of this container uses (package access: AssetIO's writer uses them too).
    ///
    /// MP4, MOV and M4A: `movflags=+faststart` when `optimizeForNetworkUse` (the `moov` box moved to the front after
    /// writing), and `movie_timescale` = `movieTimescale` when given, because edit lists and track durations are
    /// written in the movie timescale (1000 by default: whole milliseconds); the audio rate or the video clock keeps
    /// them exact to the sample or frame; `movflags=+use_metadata_tags` when `metadataKeySpace` (metadata written in
    /// the QuickTime `mdta` key space, so reverse-DNS keys such as `com.apple.quicktime.location.ISO6709` are kept).
    ///
    /// MP4 and MOV with a `movieFragmentInterval` (``fragmentedMovieOptions(interval:hasVideo:)``): a fragmented
    /// movie instead, and faststart does not apply (its `moov` is first anyway). Other containers: none (a caller
    /// checks ``checkMovieFragmentInterval(_:)`` first).
    package func muxerOptions(
        optimizeForNetworkUse: Bool, movieFragmentInterval: MediaTime? = nil, hasVideo: Bool = true,
        movieTimescale: Int32? = nil, metadataKeySpace: Bool = false
    ) -> [String: String] {
        guard [.mp4, .mov, .m4a].contains(self) else { return [:] }
        var options: [String: String] = [:]
        var flags = (optimizeForNetworkUse ? "+faststart" : "") + (metadataKeySpace ? "+use_metadata_tags" : "")
        if let movieFragmentInterval, self != .m4a {
            options = Self.fragmentedMovieOptions(interval: movieFragmentInterval, hasVideo: hasVideo)
            flags = options["movflags", default: ""] + (metadataKeySpace ? "+use_metadata_tags" : "")
        }
        if !flags.isEmpty { options["movflags"] = flags }
        if let movieTimescale { options["movie_timescale"] = "\(movieTimescale)" }
        return options
    }

    /// The `mov` muxer's options for a fragmented movie cut every `interval` of movie time on a key frame.
    ///
    /// `movflags=+frag_keyframe+delay_moov+default_base_moof`: a fragment (`moof` + `mdat`) begins at the first video
    /// key frame at least `min_frag_duration` = `interval` after the current one began (without video, every
    /// `frag_duration` = `interval`: every audio packet can begin one). `delay_moov` writes the `moov` with the first
    /// fragment rather than before any packet, so each track's edit list states its real start — an AAC encoder's
    /// priming and a B-frame stream's composition delay are hidden exactly as in a regular movie, where an empty
    /// `moov` (written before the first packet) would have every stream shifted later instead. `flush_packets=1`
    /// pushes each finished fragment out of the I/O buffer into the file, so a killed process leaves every complete
    /// fragment on disk. libavformat's muxer frees a fragment's sample table once it is written, so memory stays
    /// flat however long the movie is, where a regular movie's index grows with every packet until the trailer.
    /// - Parameters:
    ///   - interval: a positive numeric time (checked by ``checkMovieFragmentInterval(_:)``).
    ///   - hasVideo: whether the file has a video stream (fragments then begin on its key frames).
    package static func fragmentedMovieOptions(interval: MediaTime, hasVideo: Bool) -> [String: String] {
        let microseconds = max(interval.convertScale(1_000_000, method: .towardZero).value, 1)
        return [
            "movflags": "+frag_keyframe+delay_moov+default_base_moof",
            hasVideo ? "min_frag_duration" : "frag_duration": "\(microseconds)",
            "flush_packets": "1",
        ]
    }
}
