import Composition

/// An HLS media playlist (RFC 8216) for video on demand over fragmented-MP4 or WebVTT segments: the text a client
/// such as FFmpeg, AVPlayer or hls.js reads, made from each segment's exact duration.
///
/// ```
/// #EXTM3U
/// #EXT-X-VERSION:6
/// #EXT-X-TARGETDURATION:6
/// #EXT-X-MEDIA-SEQUENCE:0
/// #EXT-X-PLAYLIST-TYPE:VOD
/// #EXT-X-INDEPENDENT-SEGMENTS
/// #EXT-X-MAP:URI="init.mp4"
/// #EXTINF:6.000000,
/// segment0.m4s
/// …
/// #EXT-X-ENDLIST
/// ```
///
/// Version 6 is the lowest that allows `EXT-X-MAP` in a playlist that is not I-frames only (RFC 8216 §7).
/// `EXT-X-INDEPENDENT-SEGMENTS` says every segment decodes without the ones before it (each starts on a key frame).
/// Each `EXTINF` is its segment's duration to the microsecond, rounded on the running total (the end of segment k
/// rounded minus the end of segment k − 1 rounded), so the `EXTINF` values add up to the whole duration rounded to
/// the microsecond — exactly, when it is a whole number of microseconds. `EXT-X-TARGETDURATION` is the largest
/// `EXTINF` rounded to the nearest integer (RFC 8216 §4.3.3.1), at least 1.
public struct HLSMediaPlaylist: Sendable, Hashable {
    /// One media segment: its URI (relative to the playlist) and exact duration.
    public struct Segment: Sendable, Hashable {
        /// The segment's URI, relative to the playlist (a file name).
        public var uri: String
        /// Its duration: for video, from its first picture to the next segment's (exact).
        public var duration: MediaTime

        /// A segment entry.
        public init(uri: String, duration: MediaTime) {
            self.uri = uri
            self.duration = duration
        }
    }

    /// The compatibility version written (`EXT-X-VERSION`).
    public static let version = 6

    /// The initialization segment's URI (`EXT-X-MAP`); nil for segments that need none (WebVTT).
    public var initializationSegmentURI: String?
    /// The media segments, in order.
    public var segments: [Segment]

    /// A playlist of `segments` after the initialization segment at `initializationSegmentURI` (nil: none).
    public init(initializationSegmentURI: String?, segments: [Segment]) {
        self.initializationSegmentURI = initializationSegmentURI
        self.segments = segments
    }

    /// Each segment's `EXTINF` in whole microseconds, rounded on the running total (see the type's discussion).
    public var durationsInMicroseconds: [Int64] {
        var previous: Int64 = 0
        var total = MediaTime.zero
        return segments.map { segment in
            total = total + segment.duration
            let end = total.convertScale(1_000_000).value
            defer { previous = end }
            return end - previous
        }
    }

    /// `EXT-X-TARGETDURATION`: the largest `EXTINF` rounded to the nearest integer second (halves up), at least 1.
    public var targetDuration: Int {
        let longest = durationsInMicroseconds.max() ?? 0
        return max(1, Int((longest + 500_000) / 1_000_000))
    }

    /// The playlist's text (UTF-8, lines ending in a line feed).
    public var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(Self.version)", "#EXT-X-TARGETDURATION:\(targetDuration)",
                     "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS"]
        if let initializationSegmentURI { lines.append("#EXT-X-MAP:URI=\"\(initializationSegmentURI)\"") }
        for (segment, micros) in zip(segments, durationsInMicroseconds) {
            lines.append("#EXTINF:\(micros / 1_000_000).\(String(micros % 1_000_000).leftPadded(to: 6)),")
            lines.append(segment.uri)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The string with leading zeros up to `width` characters (playlist and manifest numbers).
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
