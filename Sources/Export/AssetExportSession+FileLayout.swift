import Composition

/// How the output file is laid out: where its index goes, whether it is written in fragments, how large it may grow.
extension AssetExportSession {
    /// Put the index (`moov`) before the media data so playback can start while downloading. True by default. Does
    /// not apply to a fragmented movie (``movieFragmentInterval``), whose `moov` comes first anyway.
    public var shouldOptimizeForNetworkUse: Bool {
        get { request.withLock { $0.shouldOptimizeForNetworkUse } }
        set { request.withLock { $0.shouldOptimizeForNetworkUse = newValue } }
    }

    /// How often the movie is written as a movie fragment, in movie time (AVFoundation's
    /// `AVAssetWriter.movieFragmentInterval`): `.invalid` (the default) writes a regular movie.
    ///
    /// With a positive interval an MP4 or MOV is written fragmented: a `moov` first, then a `moof` + `mdat` pair
    /// beginning on a video key frame every interval (the first key frame at least the interval after the last
    /// fragment began; without video, every interval), each pushed to the file as it ends. The muxer then holds
    /// one fragment's index instead of the whole movie's, so memory stays flat however long the export is; and an
    /// export that is killed leaves a file that plays up to its last complete fragment (`splice repair` cuts a torn
    /// last one off). For that the file is written under ``outputURL`` itself from the start — not linked into place
    /// when complete — created exclusively (an existing file is an error unless ``overwritesExistingFile``, and is
    /// then replaced when the export starts); a failed or cancelled export removes it. The finished file stays
    /// fragmented (AVFoundation's export has no such option; its writer rewrites a fragmented file as a regular
    /// one). Frame and sample exact as a regular movie: the `moov` is written with the first fragment, so each
    /// track's edit list states its real start (the AAC priming, the B-frame delay). Encoded video gets a key frame
    /// at least every interval (every `min(2 s, interval)` unless ``VideoSettings/keyFrameInterval`` is set); copied
    /// video (passthrough, smart rendering) keeps its own key frames, so a fragment lasts at least the interval
    /// and up to the next key frame after it. ``shouldOptimizeForNetworkUse`` does not apply.
    ///
    /// Applies to every path that writes the output: rendered, passthrough, smart rendering, concurrent segments
    /// (their join). ``validate()`` and ``export()`` throw ``ExportError/unsupportedSettings(_:)`` naming
    /// `movieFragmentInterval` for a zero, negative, infinite or too long interval
    /// (``FileType/longestMovieFragmentInterval``), for a container other than MP4 and MOV, with
    /// ``fileLengthLimit`` (a fragmented movie's size is known only fragment by fragment), with a subtitle track
    /// written as a text track (FFmpeg 5.1's muxer loses the cues' durations in fragments; a burnt-in track is fine),
    /// and with timed metadata to write (``timedMetadataGroups``, or a composition metadata track holding Splice's
    /// timed metadata): FFmpeg 5.1's muxer aborts on a timed metadata track in fragments.
    public var movieFragmentInterval: MediaTime {
        get { request.withLock { $0.movieFragmentInterval } }
        set { request.withLock { $0.movieFragmentInterval = newValue } }
    }

    /// Maximum output size in bytes. When the limit would be passed, the export stops at a frame boundary and
    /// completes with a shorter, playable file (as AVFoundation does); ``fileLengthLimitReached`` then says so. Must be
    /// greater than 0 (nil for no limit).
    public var fileLengthLimit: Int64? {
        get { request.withLock { $0.fileLengthLimit } }
        set { request.withLock { $0.fileLengthLimit = newValue } }
    }
}
