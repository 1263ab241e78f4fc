/// Which subtitle track a video composition draws into its pictures ("burns in"), rendered by libass (FFmpeg's
/// `ass` and `subtitles` filters) with fonts found through fontconfig.
///
/// Each cue shows on exactly the output frames whose time lies in its range on the composition's timeline (the
/// range it has after the track's cuts, ripples and scaling), to the centisecond ASS times keep. ASS cues keep their
/// own styles and positions. SubRip, WebVTT and mov_text cues are drawn in ``style`` when one is given, else in
/// libavcodec's default style (Arial — or fontconfig's substitute — 16 points on a 384 × 288 script scaled to the
/// picture, white with a black outline, centred at the bottom). Characters the font lacks (Chinese, Japanese,
/// Arabic, …) are drawn by fontconfig's fallback fonts.
public struct SubtitleBurnIn: Sendable, Hashable, Codable {
    /// The composition track (of media type subtitle) whose cues are drawn.
    public var trackID: Int32
    /// The style of cues that have none of their own (the track's first source is SubRip, WebVTT or mov_text);
    /// ignored for a track whose first source is ASS/SSA, whose styles are kept. Nil: libavcodec's default style.
    public var style: SubtitleStyle?

    /// Burns in the subtitle track `trackID`, in `style` (nil: libavcodec's default) unless its cues are ASS.
    public init(trackID: Int32, style: SubtitleStyle? = nil) {
        self.trackID = trackID
        self.style = style
    }
}
