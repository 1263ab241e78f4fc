/// Which subtitle track a video composition draws into its pictures ("burns in"), rendered by libass (FFmpeg's
/// `ass` filter) with fonts found through fontconfig.
///
/// Each cue shows on exactly the output frames whose time lies in its range on the composition's timeline (the
/// range it has after the track's cuts, ripples and scaling), to the centisecond ASS times keep. ASS cues keep their
/// own styles and positions; SubRip, WebVTT and mov_text cues use libavcodec's default style (Arial — or
/// fontconfig's substitute — 16 points on a 384 × 288 script scaled to the picture, white with a black outline,
/// centred at the bottom).
public struct SubtitleBurnIn: Sendable, Hashable, Codable {
    /// The composition track (of media type subtitle) whose cues are drawn.
    public var trackID: Int32

    /// Burns in the subtitle track `trackID`.
    public init(trackID: Int32) {
        self.trackID = trackID
    }
}
