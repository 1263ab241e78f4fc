extension CompositionTrack {
    /// Checks that a media segment's time effect fits its ranges:
    /// - ``SegmentTimeEffect/reverse``: the speed rule of a plain segment (`1/32 ... 32`) and a source range of at
    ///   most ``SegmentTimeEffect/maximumReversedDuration``;
    /// - ``SegmentTimeEffect/freezeFrame(_:)``: nothing more (the source range only names the held frame);
    /// - ``SegmentTimeEffect/speedRamp(_:)``: a valid ramp (``SpeedRamp/problem()``) whose ``SpeedRamp/duration`` is
    ///   the target duration and whose exact integral (``SpeedRamp/sourceDuration``) is the source duration.
    ///
    /// - Throws: ``CompositionError/speedOutOfRange(trackID:sourceRange:targetRange:)`` or
    ///   ``CompositionError/invalidTimeEffect(trackID:index:reason:)``.
    static func checkTimeEffect(
        _ effect: SegmentTimeEffect, source: TimeRange, target: TimeRange, trackID: Int32?, index: Int
    ) throws {
        switch effect {
        case .reverse:
            try checkSpeed(source: source, target: target, trackID: trackID)
            guard source.duration <= SegmentTimeEffect.maximumReversedDuration else {
                throw CompositionError.invalidTimeEffect(
                    trackID: trackID, index: index,
                    reason: "a reversed source range lasts \(source.duration), more than the "
                        + "\(SegmentTimeEffect.maximumReversedDuration) Splice reverses (its sound is reversed in memory)")
            }
        case .freezeFrame:
            break
        case .speedRamp(let ramp):
            if let problem = ramp.problem() {
                throw CompositionError.invalidTimeEffect(trackID: trackID, index: index, reason: "the speed ramp: \(problem)")
            }
            guard ramp.duration == target.duration else {
                throw CompositionError.invalidTimeEffect(
                    trackID: trackID, index: index,
                    reason: "the speed ramp lasts \(ramp.duration) but the segment's target range \(target.duration)")
            }
            guard let integral = ramp.sourceDuration, integral == source.duration else {
                throw CompositionError.invalidTimeEffect(
                    trackID: trackID, index: index,
                    reason: "the speed ramp reads \(ramp.sourceDuration.map { "\($0)" } ?? "an unrepresentable time") "
                        + "of source but the segment's source range lasts \(source.duration)")
            }
        }
    }
}
