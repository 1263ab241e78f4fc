import AssetIO
import Composition
import Foundation

/// An HLS master (multivariant) playlist (RFC 8216 §4.3.4): one `EXT-X-STREAM-INF` per video rendition, the audio
/// rendition as an `EXT-X-MEDIA` group every variant names, and the subtitle renditions as an `EXT-X-MEDIA`
/// subtitles group (`LANGUAGE` as RFC 5646 tags it, `NAME` the track's title or its language's English name,
/// `DEFAULT` and `FORCED` from the track's dispositions, `AUTOSELECT=YES`) every variant names with `SUBTITLES`.
///
/// ```
/// #EXTM3U
/// #EXT-X-VERSION:6
/// #EXT-X-INDEPENDENT-SEGMENTS
/// #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio-128k",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio-128k/playlist.m3u8"
/// #EXT-X-STREAM-INF:BANDWIDTH=3412345,AVERAGE-BANDWIDTH=3012345,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.000,AUDIO="audio"
/// 720p-3000k/playlist.m3u8
/// ```
///
/// `BANDWIDTH` is the variant's peak segment bit rate (RFC 8216 §4.3.4.2: the peak over the segments of the
/// variant and the renditions it plays with): the video rendition's peak plus the audio rendition's peak, an upper
/// bound of their sum over any one segment. `AVERAGE-BANDWIDTH` is the sum of their average bit rates.
/// `EXT-X-INDEPENDENT-SEGMENTS` holds because every segment starts with an IDR picture.
public struct HLSMasterPlaylist: Sendable, Hashable {
    /// The `EXT-X-MEDIA` group ID of the audio rendition.
    public static let audioGroupID = "audio"
    /// The `EXT-X-MEDIA` group ID of the subtitle renditions.
    public static let subtitlesGroupID = "subtitles"

    /// The package the playlist describes.
    public var package: AdaptiveBitratePackage
    /// The media playlist's file name inside each rendition's folder.
    public var mediaPlaylistName: String

    /// The master playlist of `package`, whose renditions' media playlists are `NAME/mediaPlaylistName`.
    public init(package: AdaptiveBitratePackage, mediaPlaylistName: String = "playlist.m3u8") {
        self.package = package
        self.mediaPlaylistName = mediaPlaylistName
    }

    /// The playlist's text (UTF-8, lines ending in a line feed).
    public var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(HLSMediaPlaylist.version)", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let audio = package.audioRendition
        if let audio {
            lines.append("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(Self.audioGroupID)\",NAME=\"\(audio.name)\",DEFAULT=YES,"
                + "AUTOSELECT=YES,CHANNELS=\"\(audio.channelCount ?? 2)\",URI=\"\(audio.name)/\(mediaPlaylistName)\"")
        }
        var names: Set<String> = []
        for subtitles in package.subtitleRenditions {
            var name = subtitles.title ?? subtitles.languageTag.flatMap { Locale(identifier: "en").localizedString(forLanguageCode: $0) }
                ?? subtitles.name
            if names.contains(name) { name += " (\(subtitles.trackID))" }
            names.insert(name)
            var attributes = ["TYPE=SUBTITLES", "GROUP-ID=\"\(Self.subtitlesGroupID)\""]
            if let language = subtitles.languageTag { attributes.append("LANGUAGE=\"\(language)\"") }
            attributes += ["NAME=\"\(name.replacingOccurrences(of: "\"", with: "'"))\"", "DEFAULT=\(subtitles.isDefault ? "YES" : "NO")",
                           "AUTOSELECT=YES", "FORCED=\(subtitles.isForced ? "YES" : "NO")",
                           "URI=\"\(subtitles.name)/\(mediaPlaylistName)\""]
            lines.append("#EXT-X-MEDIA:" + attributes.joined(separator: ","))
        }
        let rate = Double(package.frameDuration.timescale) / Double(package.frameDuration.value)
        for video in package.videoRenditions {
            var attributes = ["BANDWIDTH=\(video.peakBitRate + (audio?.peakBitRate ?? 0))",
                              "AVERAGE-BANDWIDTH=\(video.averageBitRate + (audio?.averageBitRate ?? 0))",
                              "CODECS=\"\(([video.codecs] + (audio.map { [$0.codecs] } ?? [])).joined(separator: ","))\""]
            if let size = video.size { attributes.append("RESOLUTION=\(size.width)x\(size.height)") }
            attributes.append("FRAME-RATE=" + String(format: "%.3f", rate))
            if audio != nil { attributes.append("AUDIO=\"\(Self.audioGroupID)\"") }
            if !package.subtitleRenditions.isEmpty { attributes.append("SUBTITLES=\"\(Self.subtitlesGroupID)\"") }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append("\(video.name)/\(mediaPlaylistName)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
