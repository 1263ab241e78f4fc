/// How a segment maps a range of a source track onto the composition timeline, as Core Media's `CMTimeMapping`.
///
/// `source` is a range of the source track's time (source time 0 is the track's first presented sample);
/// `target` is the range of composition time it occupies. When the durations differ the segment plays at
/// `source.duration / target.duration` speed. An empty edit (a gap) has an invalid `source`.
public struct TimeMapping: Sendable, Hashable, Codable {
    /// The range read from the source track; ``TimeRange/invalid`` for an empty edit.
    public var source: TimeRange
    /// The range of composition time the segment occupies.
    public var target: TimeRange

    /// A mapping of `source` onto `target`.
    public init(source: TimeRange, target: TimeRange) {
        self.source = source
        self.target = target
    }

    /// An empty edit over `target` (a gap: black video, silent audio), as `CMTimeMappingMakeEmpty`.
    public init(emptyTarget target: TimeRange) {
        self.init(source: .invalid, target: target)
    }

    /// True for an empty edit.
    public var isEmpty: Bool { !source.isValid }

    /// The playback speed `source.duration / target.duration` as a floating-point factor, for display only.
    public var speed: Double {
        isEmpty ? 1 : source.duration.seconds / target.duration.seconds
    }
}
