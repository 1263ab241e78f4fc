import Composition
import Foundation

/// A written storyboard: the sprite sheets (JPEG), the WebVTT thumbnail track that points into them, and where each
/// thumbnail is.
public struct Storyboard: Sendable, Hashable {
    /// One thumbnail: the composition time it stands for and where it is drawn.
    public struct Tile: Sendable, Hashable {
        /// The cue's time range: from the thumbnail's time to the next one's (the last ends at the duration). The
        /// thumbnail shows the picture at `timeRange.start`.
        public var timeRange: TimeRange
        /// Index into ``Storyboard/sheets``.
        public var sheet: Int
        /// Left edge, pixels from the sheet's left.
        public var x: Int
        /// Top edge, pixels from the sheet's top.
        public var y: Int
    }

    /// The sprite sheets, in order (`NAME-0.jpg`, `NAME-1.jpg`, …): each `columns × tileWidth` by `rows × tileHeight`
    /// pixels, thumbnails left to right then top to bottom; the last sheet's unused places are black.
    public var sheets: [URL]
    /// The WebVTT thumbnail track (`NAME.vtt`): one cue per tile, its text `NAME-k.jpg#xywh=x,y,w,h`.
    public var webVTT: URL
    /// Thumbnail size in pixels.
    public var tileSize: Size
    /// Every thumbnail, in time order; their time ranges tile the whole duration.
    public var tiles: [Tile]
}
