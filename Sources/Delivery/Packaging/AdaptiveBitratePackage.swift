import Foundation
import Composition

/// The manifests an ``AdaptiveBitratePackager`` writes over the one set of CMAF segments.
public enum StreamingManifestFormat: String, Sendable, Hashable, CaseIterable {
    /// HTTP Live Streaming (RFC 8216): `master.m3u8` and one media playlist per rendition.
    case hls
    /// MPEG-DASH (ISO/IEC 23009-1): `manifest.mpd` with a `SegmentTemplate` and `SegmentTimeline` per rendition.
    case dash
}

/// What an ``AdaptiveBitratePackager`` wrote.
public struct AdaptiveBitratePackage: Sendable, Hashable {
    /// One rendition as packaged: its folder of segments and what was measured on them.
    public struct Rendition: Sendable, Hashable {
        /// The folder name under the package, the HLS `NAME` and DASH `Representation@id` (e.g. `720p-3000k`,
        /// `audio-128k`).
        public var name: String
        /// Picture size in pixels (nil for the audio rendition).
        public var size: Size?
        /// Channels of the audio rendition (nil for video).
        public var channelCount: Int?
        /// The codec as RFC 6381 names it for `CODECS` and `@codecs`, e.g. `avc1.64001f`, `mp4a.40.2`.
        public var codecs: String
        /// The bit rate asked for, bits per second.
        public var targetBitRate: Int
        /// The highest bit rate of one media segment (its bytes × 8 / its duration), bits per second, rounded up.
        public var peakBitRate: Int
        /// Every media segment's bytes × 8 / the rendition's duration, bits per second, rounded up.
        public var averageBitRate: Int
        /// Each media segment's duration (exact; for video, from its first picture to the next segment's).
        public var segmentDurations: [MediaTime]
        /// The track's time scale in the initialization segment (`mdhd`), units per second: the unit of the DASH
        /// `SegmentTimeline`.
        public var timescale: Int32
    }

    /// One subtitle rendition: a composition subtitle track as WebVTT, in segments aligned with the video's for HLS
    /// (`segment0.vtt`, …, `playlist.m3u8`) and as one whole-programme file for DASH (`subtitles.vtt`), in its folder.
    public struct SubtitleRendition: Sendable, Hashable {
        /// The folder name under the package and the DASH `Representation@id`: `subtitles-TRACKID`.
        public var name: String
        /// The composition track's ID.
        public var trackID: Int32
        /// ISO 639-2 language (`eng`): the track's own, else its first source's (as an export writes it); nil when
        /// neither states one.
        public var languageCode: String?
        /// The source track's title, if any.
        public var title: String?
        /// The source track's `default` disposition: `DEFAULT=YES` in HLS.
        public var isDefault: Bool
        /// The source track's `forced` disposition: `FORCED=YES` in HLS, the `forced-subtitle` role in DASH.
        public var isForced: Bool
        /// Each segment's duration: the video segments' (exact).
        public var segmentDurations: [MediaTime]
        /// The whole-programme file's bytes × 8 / the programme's duration, bits per second, rounded up.
        public var bitRate: Int

        /// The whole-programme WebVTT file's name in the rendition's folder.
        public static let wholeProgrammeFileName = "subtitles.vtt"

        /// RFC 5646's tag for the language (`en` for `eng`: the shortest ISO 639 code), nil when none is stated.
        public var languageTag: String? {
            languageCode.map { Locale.LanguageCode($0).identifier(.alpha2) ?? $0 }
        }
    }

    /// The package's folder.
    public var directory: URL
    /// `master.m3u8`, when HLS was asked for.
    public var masterPlaylist: URL?
    /// `manifest.mpd`, when DASH was asked for.
    public var dashManifest: URL?
    /// The video renditions, highest first.
    public var videoRenditions: [Rendition]
    /// The audio rendition (AAC, its own rendition group), nil when the composition has no sound.
    public var audioRendition: Rendition?
    /// The subtitle renditions (WebVTT), one per enabled composition subtitle track with cues, in track order.
    public var subtitleRenditions: [SubtitleRendition] = []
    /// The programme's duration: to the end of the composition's last video or audio track (a subtitle track that
    /// ends later does not lengthen it).
    public var duration: MediaTime
    /// The picture rate of every video rendition, frames per second as an exact time per frame.
    public var frameDuration: MediaTime
}
