/// The text format an export writes a composition's subtitle tracks in; each is libavcodec's encoder of that name.
///
/// The containers hold: MP4 and MOV ``movText`` (3GPP timed text, `tx3g`, what Apple's players show); Matroska
/// ``subRip``, ``ass`` or ``webVTT``; WebM ``webVTT``. An `.m4a` file holds sound only: subtitle tracks are left out,
/// as its video is.
public enum SubtitleCodec: String, Sendable, Hashable, Codable, CaseIterable {
    /// 3GPP timed text (`mov_text`, sample entry `tx3g`): MP4 and MOV.
    case movText
    /// SubRip text (`subrip`, `S_TEXT/UTF8` in Matroska): plain text with `<i>`, `<b>`, `<u>` and `<font>` tags.
    case subRip
    /// Advanced SubStation Alpha (`ass`, `S_TEXT/ASS` in Matroska): styles and positioning kept.
    case ass
    /// WebVTT (`webvtt`, `D_WEBVTT/SUBTITLES` in Matroska and WebM).
    case webVTT

    /// libavcodec's encoder name.
    var encoderName: String {
        switch self {
        case .movText: return "mov_text"
        case .subRip: return "subrip"
        case .ass: return "ass"
        case .webVTT: return "webvtt"
        }
    }

    /// The codecs `fileType` can hold; empty for an audio-only file type.
    static func allowed(in fileType: FileType) -> [SubtitleCodec] {
        switch fileType {
        case .mp4, .mov: return [.movText]
        case .mkv: return [.subRip, .ass, .webVTT]
        case .webm: return [.webVTT]
        case .m4a: return []
        }
    }

    /// The codec an export uses in `fileType` when none is named: mov_text in MP4/MOV, WebVTT in WebM; in
    /// Matroska ASS when every source is ASS/SSA (their styles kept), SubRip otherwise. Nil for `.m4a`.
    static func preferred(in fileType: FileType, sourceCodecs: [String]) -> SubtitleCodec? {
        switch fileType {
        case .mp4, .mov: return .movText
        case .webm: return .webVTT
        case .m4a: return nil
        case .mkv:
            return !sourceCodecs.isEmpty && sourceCodecs.allSatisfy({ $0 == "ass" || $0 == "ssa" }) ? .ass : .subRip
        }
    }
}
