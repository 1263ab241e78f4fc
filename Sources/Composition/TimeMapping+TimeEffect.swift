extension TimeMapping {
    /// The source time that plays at composition time `time` (inside ``target``) under `effect` — the one answer the
    /// renderer and the image generator use (see ``SegmentTimeEffect`` for each rule):
    /// - nil: `CMTimeMapTimeFromRangeToRange`, `source.start + (time − target.start) × speed`;
    /// - ``SegmentTimeEffect/reverse``: the mirror `source.end − (time − target.start) × speed`; the picture shown is
    ///   the one on screen just *before* that instant (``SegmentTimeEffect/playsBackward``), so the first output frame
    ///   of a reversed range shows the range's last frame;
    /// - ``SegmentTimeEffect/freezeFrame(_:)``: `source.start`;
    /// - ``SegmentTimeEffect/speedRamp(_:)``: `source.start + ∫ rate` (``SpeedRamp/sourceOffset(at:)``, exact when
    ///   representable, else rounded down to a nanosecond).
    ///
    /// - Returns: ``MediaTime/invalid`` for an empty mapping or a ramp whose arithmetic overflows.
    public func sourceTime(at time: MediaTime, effect: SegmentTimeEffect?) -> MediaTime {
        guard !isEmpty else { return .invalid }
        switch effect {
        case nil:
            return TimeRange.mapTime(time, from: target, to: source)
        case .reverse:
            let forward = TimeRange.mapTime(time, from: target, to: source)
            return source.end - (forward - source.start)
        case .freezeFrame:
            return source.start
        case .speedRamp(let ramp):
            guard let offset = ramp.sourceOffset(at: time - target.start) else { return .invalid }
            return source.start + offset
        }
    }
}

extension SegmentTimeEffect {
    /// True for ``reverse``: the picture for a source instant is the last one *before* it (the source is walked
    /// backwards, so a frame's interval is entered from its end).
    public var playsBackward: Bool {
        if case .reverse = self { return true }
        return false
    }
}
