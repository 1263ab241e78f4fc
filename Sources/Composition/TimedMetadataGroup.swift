/// Metadata items that hold over a range of time, as AVFoundation's `AVTimedMetadataGroup`: a chapter (its title
/// for its range) is one.
public struct TimedMetadataGroup: Sendable, Hashable, Codable {
    /// The range the items hold over, in seconds (source time for an asset's groups, output time for an export's).
    public var timeRange: TimeRange
    /// The items: a chapter's `title`, and any other keys its container keeps.
    public var items: [MetadataItem]

    /// A group of `items` over `timeRange`.
    public init(timeRange: TimeRange, items: [MetadataItem]) {
        self.timeRange = timeRange
        self.items = items
    }

    /// A chapter titled `title` over `timeRange`.
    public init(chapterTitled title: String, timeRange: TimeRange) {
        self.init(timeRange: timeRange, items: [MetadataItem(key: "title", value: title)])
    }

    /// The value of the `title` item, nil when there is none.
    public var title: String? { items.first { $0.key == "title" }?.value }
}
