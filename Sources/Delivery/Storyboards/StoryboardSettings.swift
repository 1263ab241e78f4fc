import Composition

/// How a storyboard is cut: one thumbnail every ``interval``, ``columns`` × ``rows`` thumbnails to a sprite sheet,
/// each ``tileWidth`` pixels wide (its height follows the picture's aspect ratio, rounded to an even number).
///
/// ```json
/// { "interval": "5s", "columns": 5, "rows": 5, "tileWidth": 160 }
/// ```
public struct StoryboardSettings: Sendable, Hashable, Codable {
    /// Composition time between thumbnails (thumbnail `i` shows time `i × interval`); positive.
    public var interval: MediaTime
    /// Thumbnails across a sheet, 1…64.
    public var columns: Int
    /// Thumbnails down a sheet, 1…64.
    public var rows: Int
    /// Thumbnail width in pixels, even, 16…1920 (and never wider than the picture).
    public var tileWidth: Int

    /// A storyboard with a thumbnail every `interval` (10 s by default) on sheets of `columns` × `rows` (5 × 5),
    /// `tileWidth` pixels wide (160).
    public init(interval: MediaTime = MediaTime(value: 10, timescale: 1), columns: Int = 5, rows: Int = 5, tileWidth: Int = 160) {
        self.interval = interval
        self.columns = columns
        self.rows = rows
        self.tileWidth = tileWidth
    }

    /// Checks every field.
    /// - Throws: ``StoryboardError/invalidSettings(_:)`` naming the field and its allowed range.
    public func validate() throws(StoryboardError) {
        guard interval.isNumeric, interval > .zero else { throw .invalidSettings("interval \(interval) is not a positive time") }
        guard (1...64).contains(columns) else { throw .invalidSettings("columns \(columns) is outside 1…64") }
        guard (1...64).contains(rows) else { throw .invalidSettings("rows \(rows) is outside 1…64") }
        guard (16...1920).contains(tileWidth), tileWidth % 2 == 0 else {
            throw .invalidSettings("tileWidth \(tileWidth) is not an even number of pixels in 16…1920")
        }
    }
}
