import Composition

extension FileType {
    /// The longest movie fragment interval: the `mov` muxer takes fragment durations as a 32-bit count of
    /// microseconds (2 147.483647 s).
    public static let longestMovieFragmentInterval = MediaTime(value: Int64(Int32.max), timescale: 1_000_000)

    /// Checks a movie fragment interval for this container: nil or `.invalid` (a regular movie) always passes; a
    /// positive numeric time passes for MP4 and MOV.
    /// - Returns: the interval to fragment by, or nil for a regular movie.
    /// - Throws: ``ExportError/unsupportedSettings(_:)`` naming `movieFragmentInterval` and the cause: a zero,
    ///   negative, infinite or too long (``longestMovieFragmentInterval``) interval, or a container other than MP4
    ///   and MOV (M4A included: it is audio-only and its players expect a regular movie; Matroska and WebM have
    ///   clusters of their own).
    package func checkMovieFragmentInterval(_ interval: MediaTime?) throws -> MediaTime? {
        guard let interval, interval.isValid else { return nil }
        guard interval.isNumeric, interval > .zero, interval <= Self.longestMovieFragmentInterval else {
            throw ExportError.unsupportedSettings(
                "movieFragmentInterval \(interval) must be a positive time of at most "
                    + "\(Self.longestMovieFragmentInterval.secondsText) (MediaTime.invalid for a regular movie)")
        }
        guard self == .mp4 || self == .mov else {
            throw ExportError.unsupportedSettings(
                "movieFragmentInterval \(interval.secondsText): a .\(rawValue) file cannot be written as a fragmented "
                    + "movie; only .mp4 and .mov can")
        }
        return interval
    }
}
