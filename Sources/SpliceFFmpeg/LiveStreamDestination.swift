import Foundation

/// Where a live stream goes and the muxer that carries it there, read from the URL a caller gave:
/// - `rtmp://host:port/app/key`, `rtmps://…`: FLV, as RTMP ingest servers take it;
/// - `srt://host:port[?options]`: MPEG-TS over FFmpeg's libsrt protocol (the sender is the caller);
/// - a file URL ending in `.m3u8`: live HLS (FFmpeg's `hls` muxer), fragmented-MP4 segments beside the playlist.
///
/// Any other scheme, or a file not ending in `.m3u8`, is no destination (the initializer returns nil): the engines
/// refuse it by name when it is configured.
package struct LiveStreamDestination: Sendable, Hashable {
    /// The muxer: `flv`, `mpegts` or `hls`.
    package var format: String
    /// What FFmpeg opens: the URL, or the playlist's path for HLS.
    package var target: String
    /// The destination as errors name it: the path for a file, the whole URL otherwise.
    package var name: String

    /// The destination of `url`; nil for one no live stream can go to.
    package init?(_ url: URL) {
        name = Self.name(of: url)
        switch url.scheme?.lowercased() {
        case "rtmp", "rtmps": (format, target) = ("flv", url.absoluteString)
        case "srt": (format, target) = ("mpegts", url.absoluteString)
        case "file" where url.pathExtension.lowercased() == "m3u8": (format, target) = ("hls", url.path)
        default: return nil
        }
    }

    /// The URL as errors name it: the path for a file, the whole URL otherwise.
    package static func name(of url: URL) -> String { url.isFileURL ? url.path : url.absoluteString }

    /// The protocol's options for opening the connection (`avio_open2`): for SRT a `connect_timeout` of
    /// `connectionTimeout` seconds (in ms), so a peer that does not answer fails inside it rather than after libsrt's
    /// own 3 s; none otherwise (RTMP and HLS are bounded by the interrupt callback).
    package func ioOptions(connectionTimeout: Double) -> [String: String] {
        format == "mpegts" ? ["connect_timeout": "\(Int64(connectionTimeout * 1_000))"] : [:]
    }

    /// The muxer's header options: FLV without the duration and size fields a live stream cannot know; for HLS
    /// segments of `segmentDuration` seconds (`hls_time`, cut at the next key frame) in fragmented MP4, the playlist
    /// listing the last `playlistLength` (`hls_list_size`), older ones deleted, each segment written under a temporary
    /// name and renamed when complete.
    package func muxerOptions(segmentDuration: Double, playlistLength: Int) -> [String: String] {
        switch format {
        case "flv": return ["flvflags": "no_duration_filesize"]
        case "hls":
            return ["hls_time": String(format: "%.3f", max(segmentDuration, 0.1)), "hls_list_size": "\(max(1, playlistLength))",
                    "hls_segment_type": "fmp4", "hls_flags": "delete_segments+independent_segments+temp_file"]
        default: return [:]
        }
    }
}
