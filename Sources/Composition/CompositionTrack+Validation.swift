extension CompositionTrack {
    /// Checks that `segments` is a valid segment list for a track, and reports the first violation.
    ///
    /// A valid list (possibly empty) satisfies, segment by segment in order:
    /// - the target range has a finite start and a finite duration greater than 0 s;
    /// - the first segment starts at 0 and each next one starts exactly where the previous one ends (no gap, no
    ///   overlap — compared exactly, across timescales);
    /// - a media segment has a source track (of `mediaType`, when given) and a finite source range with a duration
    ///   greater than 0 lying inside the source track's ``AssetTrack/timeRange``; an empty segment has neither;
    /// - a media segment's speed (source duration / target duration) is within `1/32 ... 32`
    ///   (``speedLimit``), except for still images;
    /// - a segment's time effect fits its ranges (``checkTimeEffect(_:source:target:trackID:index:)``);
    /// - the last segment is not empty (AVFoundation never lets a track end with a gap).
    ///
    /// - Parameters:
    ///   - segments: the candidate list.
    ///   - trackID: the composition track the list is meant for, named in errors; nil if none.
    ///   - mediaType: the composition track's media type, to check each source against; nil to skip that check.
    /// - Throws: the first violation: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)``,
    ///   ``CompositionError/segmentGap(trackID:index:expectedStart:start:)``,
    ///   ``CompositionError/segmentOverlap(trackID:index:expectedStart:start:)``,
    ///   ``CompositionError/inconsistentEmptySegment(trackID:index:)``,
    ///   ``CompositionError/mediaTypeMismatch(trackID:trackMediaType:sourceTrackID:sourceMediaType:)``,
    ///   ``CompositionError/sourceRangeOutsideSourceTrack(trackID:sourceURL:sourceTrackID:range:sourceTimeRange:)``,
    ///   ``CompositionError/speedOutOfRange(trackID:sourceRange:targetRange:)``,
    ///   ``CompositionError/invalidTimeEffect(trackID:index:reason:)`` or
    ///   ``CompositionError/trailingEmptySegment(trackID:index:)``.
    /// - Complexity: O(n).
    public static func validateSegments(
        _ segments: [CompositionTrackSegment], trackID: Int32? = nil, mediaType: MediaType? = nil
    ) throws {
        var expectedStart = MediaTime.zero
        for (index, segment) in segments.enumerated() {
            let target = segment.timeMapping.target
            let name = "segments[\(index)].timeMapping"
            try checkFinite(target.start, trackID: trackID, parameter: "\(name).target.start")
            try checkPositiveDuration(target.duration, trackID: trackID, parameter: "\(name).target.duration")
            if target.start > expectedStart {
                throw CompositionError.segmentGap(
                    trackID: trackID, index: index, expectedStart: expectedStart, start: target.start)
            }
            if target.start < expectedStart {
                throw CompositionError.segmentOverlap(
                    trackID: trackID, index: index, expectedStart: expectedStart, start: target.start)
            }
            if let source = segment.sourceTrack {
                let range = segment.timeMapping.source
                guard range.start.isValid || range.duration.isValid else {
                    throw CompositionError.inconsistentEmptySegment(trackID: trackID, index: index)
                }
                if let mediaType, source.mediaType != mediaType {
                    throw CompositionError.mediaTypeMismatch(
                        trackID: trackID ?? 0, trackMediaType: mediaType, sourceTrackID: source.trackID,
                        sourceMediaType: source.mediaType)
                }
                try checkReadable(source, trackID: trackID)
                try checkFinite(range.start, trackID: trackID, parameter: "\(name).source.start")
                try checkPositiveDuration(range.duration, trackID: trackID, parameter: "\(name).source.duration")
                try checkSourceRange(range, of: source, trackID: trackID)
                if let effect = segment.timeEffect {
                    try checkTimeEffect(effect, source: range, target: target, trackID: trackID, index: index)
                } else if !segment.isStillImage {
                    try checkSpeed(source: range, target: target, trackID: trackID)
                }
            } else if segment.timeMapping.source.start.isValid || segment.timeMapping.source.duration.isValid {
                throw CompositionError.inconsistentEmptySegment(trackID: trackID, index: index)
            }
            expectedStart = target.end
        }
        if let last = segments.last, last.isEmpty {
            throw CompositionError.trailingEmptySegment(trackID: trackID, index: segments.count - 1)
        }
    }

    // MARK: - Argument checks shared by the editing operations

    /// Throws ``CompositionError/invalidTime(trackID:parameter:time:)`` unless `time` is a finite number.
    static func checkFinite(_ time: MediaTime, trackID: Int32?, parameter: String) throws {
        guard time.isNumeric else {
            throw CompositionError.invalidTime(trackID: trackID, parameter: parameter, time: time)
        }
    }

    /// Throws unless `duration` is finite and greater than 0.
    static func checkPositiveDuration(_ duration: MediaTime, trackID: Int32?, parameter: String) throws {
        try checkFinite(duration, trackID: trackID, parameter: parameter)
        guard duration > .zero else {
            throw CompositionError.nonPositiveDuration(trackID: trackID, parameter: parameter, duration: duration)
        }
    }

    /// Checks a composition-time range argument: a finite start ≥ 0 and a finite duration > 0.
    static func checkTargetRange(_ range: TimeRange, trackID: Int32?, parameter: String = "timeRange") throws {
        try checkFinite(range.start, trackID: trackID, parameter: "\(parameter).start")
        guard range.start >= .zero else {
            throw CompositionError.negativeTime(trackID: trackID, parameter: "\(parameter).start", time: range.start)
        }
        try checkPositiveDuration(range.duration, trackID: trackID, parameter: "\(parameter).duration")
    }

    /// Throws ``CompositionError/sourceRangeOutsideSourceTrack(trackID:sourceURL:sourceTrackID:range:sourceTimeRange:)``
    /// unless `range` lies inside `source.timeRange` (an unbounded still-image range contains every finite range
    /// from its start on).
    static func checkSourceRange(_ range: TimeRange, of source: AssetTrack, trackID: Int32?) throws {
        guard source.timeRange.contains(range) else {
            throw CompositionError.sourceRangeOutsideSourceTrack(
                trackID: trackID, sourceURL: source.assetURL, sourceTrackID: source.trackID, range: range,
                sourceTimeRange: source.timeRange)
        }
    }

    /// Throws ``CompositionError/unreadableTimedMetadata(trackID:sourceURL:sourceTrackID:)`` for a timed metadata
    /// source whose groups cannot be read (``AssetTrack/isDecodable`` false: QuickTime's `mebx` boxed metadata).
    static func checkReadable(_ source: AssetTrack, trackID: Int32?) throws {
        if source.mediaType == .metadata, !source.isDecodable {
            throw CompositionError.unreadableTimedMetadata(trackID: trackID ?? 0, sourceURL: source.assetURL, sourceTrackID: source.trackID)
        }
    }

    /// Throws ``CompositionError/speedOutOfRange(trackID:sourceRange:targetRange:)`` unless
    /// `1/32 ≤ source.duration / target.duration ≤ 32`, compared exactly.
    static func checkSpeed(source: TimeRange, target: TimeRange, trackID: Int32?) throws {
        let tooSlow = source.duration * speedLimit < target.duration
        let tooFast = source.duration > target.duration * speedLimit
        if tooSlow || tooFast {
            throw CompositionError.speedOutOfRange(trackID: trackID, sourceRange: source, targetRange: target)
        }
    }
}
