extension MutableComposition {
    /// The ID of the first track (in ``tracks`` order) that `track` can be inserted into without changing how the
    /// track's media is described, or nil, as `AVMutableComposition.mutableTrack(compatibleWith:)`. The rule is
    /// ``CompositionTrack/isCompatible(with:)``, AVFoundation's observable one: the same media type and, for a track
    /// already holding media, the same codec (a format the track decodes). Size, orientation, sample rate and channel
    /// layout may differ: place each clip with its layer instruction's transform.
    public func mutableTrack(compatibleWith track: AssetTrack) -> Int32? {
        tracks.first { $0.isCompatible(with: track) }?.trackID
    }

    /// Inserts `range` of `track` at `startTime` into the composition track `trackID`; see
    /// ``CompositionTrack/insertTimeRange(_:of:at:)`` for the rules. Other tracks are not changed.
    ///
    /// - Throws: ``CompositionError/unknownTrackID(_:)``, or what the track's insert throws.
    /// - Complexity: O(1) amortised when appending, O(n) in the track's segments otherwise.
    public mutating func insertTimeRange(
        _ range: TimeRange, of track: AssetTrack, at startTime: MediaTime, intoTrackWithID trackID: Int32
    ) throws {
        let index = try index(ofTrackID: trackID)
        try tracks[index].insertTimeRange(range, of: track, at: startTime)
    }

    /// Inserts `range` of every video, audio, subtitle and timed metadata track of `asset` at `startTime`, as
    /// AVFoundation's `AVMutableComposition.insertTimeRange(_:of:at:)`.
    ///
    /// Each source track goes into the first composition track not already used by this insert whose format it
    /// shares (``CompositionTrack/sharesFormat(with:)``: compatible, and for video the same size and orientation, so
    /// a default video composition shows every clip upright); when there is none, a track is added (with the next free ID), so an asset with
    /// two audio tracks fills two composition tracks. Existing content at `startTime` is pushed out by
    /// `range.duration` in *every* track that extends past `startTime` — tracks that receive nothing get an empty
    /// range — so the composition's tracks stay in sync (AVFoundation: "existing content at the specified start time
    /// is pushed out by the duration of the time range"). A source track shorter than `range` (audio ending before
    /// the video is common) contributes what it has, padded with empty segments (dropped at a track's end). An
    /// invalid `startTime` appends at the composition's ``duration``. Subtitle and timed metadata tracks come along
    /// with the picture (their cues and groups cut with it); data tracks, and timed metadata tracks whose groups cannot
    /// be read (QuickTime's `mebx`, ``AssetTrack/isDecodable`` false), are skipped.
    ///
    /// - Parameters:
    ///   - range: the range of the asset to insert, in source time (seconds); inside `[0, asset.duration)` (a still
    ///     image asset, with an unbounded duration, takes any finite range).
    ///   - asset: the source.
    ///   - startTime: where the range starts in composition time (seconds), ≥ 0, or ``MediaTime/invalid`` to append.
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)``,
    ///   ``CompositionError/negativeTime(trackID:parameter:time:)``,
    ///   ``CompositionError/rangeOutsideAsset(url:range:assetDuration:)``,
    ///   ``CompositionError/noComposableTracks(url:)``, or a track's
    ///   ``CompositionError/timeNotRepresentable(trackID:operation:time:)``. The composition is unchanged when it
    ///   throws.
    /// - Complexity: O(n) in the total number of segments.
    public mutating func insertTimeRange(_ range: TimeRange, of asset: Asset, at startTime: MediaTime) throws {
        try CompositionTrack.checkFinite(range.start, trackID: nil, parameter: "timeRange.start")
        try CompositionTrack.checkPositiveDuration(range.duration, trackID: nil, parameter: "timeRange.duration")
        guard TimeRange(start: .zero, duration: asset.duration).contains(range) else {
            throw CompositionError.rangeOutsideAsset(url: asset.url, range: range, assetDuration: asset.duration)
        }
        let sources = asset.tracks.filter { $0.mediaType.isComposable && ($0.mediaType != .metadata || $0.isDecodable) }
        guard !sources.isEmpty else { throw CompositionError.noComposableTracks(url: asset.url) }
        let time: MediaTime
        if startTime.isValid {
            try CompositionTrack.checkFinite(startTime, trackID: nil, parameter: "startTime")
            guard startTime >= .zero else {
                throw CompositionError.negativeTime(trackID: nil, parameter: "startTime", time: startTime)
            }
            time = startTime
        } else {
            time = duration
        }

        // Plan every track before changing any.
        var newTracks: [CompositionTrack] = []
        var plans: [(index: Int, edit: SegmentEdit)] = []
        var used = Set<Int32>()
        var nextTrackID = nextFreeTrackID()
        for source in sources {
            if let index = tracks.firstIndex(where: { !used.contains($0.trackID) && $0.sharesFormat(with: source) }) {
                used.insert(tracks[index].trackID)
                plans.append((index, try tracks[index].assetTrackPlan(range, of: source, at: time)))
            } else if let index = newTracks.firstIndex(where: { !used.contains($0.trackID) && $0.sharesFormat(with: source) }) {
                used.insert(newTracks[index].trackID)
                newTracks[index].apply(try newTracks[index].assetTrackPlan(range, of: source, at: time))
            } else {
                var track = CompositionTrack(checkedTrackID: nextTrackID, mediaType: source.mediaType)
                used.insert(nextTrackID)
                nextTrackID = nextFreeTrackID(after: nextTrackID, excluding: used)
                track.apply(try track.assetTrackPlan(range, of: source, at: time))
                newTracks.append(track)
            }
        }
        let gap = TimeRange(start: time, duration: range.duration)
        for index in tracks.indices where !used.contains(tracks[index].trackID) && time < tracks[index].end {
            plans.append((index, try tracks[index].insertEmptyPlan(gap)))
        }
        for (index, edit) in plans { tracks[index].apply(edit) }
        tracks += newTracks
    }

    /// Inserts an empty range at `range.start` in every track that extends past it, rippling later content right
    /// by `range.duration`, as `AVMutableComposition.insertEmptyTimeRange(_:)`. Tracks ending at or before
    /// `range.start` are unchanged (they have nothing to push, and a track never ends with a gap).
    ///
    /// - Parameter range: where the gap goes and how long it is, in composition time (seconds).
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/negativeTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)``,
    ///   ``CompositionError/emptyRangeAtEnd(trackID:range:trackEnd:)`` (with a nil track ID) when `range.start` is at
    ///   or after the composition's ``duration`` (AVFoundation's rule for tracks, applied to the whole). The
    ///   composition is unchanged when it throws.
    /// - Complexity: O(n) in the total number of segments.
    public mutating func insertEmptyTimeRange(_ range: TimeRange) throws {
        try CompositionTrack.checkTargetRange(range, trackID: nil)
        let total = duration
        guard range.start < total else {
            throw CompositionError.emptyRangeAtEnd(trackID: nil, range: range, trackEnd: total)
        }
        let plans = try tracks.indices.filter { range.start < tracks[$0].end }.map { ($0, try tracks[$0].insertEmptyPlan(range)) }
        for (index, edit) in plans { tracks[index].apply(edit) }
    }

    /// Removes `range` of composition time from every track and ripples later content left, as
    /// `AVMutableComposition.removeTimeRange(_:)`; see ``CompositionTrack/removeTimeRange(_:)``. Tracks are never
    /// removed, even when they become empty.
    ///
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/negativeTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)`` or a track's
    ///   ``CompositionError/timeNotRepresentable(trackID:operation:time:)``. The composition is unchanged when it
    ///   throws.
    /// - Complexity: O(n) in the total number of segments.
    public mutating func removeTimeRange(_ range: TimeRange) throws {
        try CompositionTrack.checkTargetRange(range, trackID: nil)
        let plans = try tracks.indices.map { ($0, try tracks[$0].removePlan(range)) }
        for case let (index, edit?) in plans { tracks[index].apply(edit) }
    }

    /// Changes the duration of `range` of composition time to `duration` in every track, as
    /// `AVMutableComposition.scaleTimeRange(_:toDuration:)`; see ``CompositionTrack/scaleTimeRange(_:toDuration:)``.
    /// Every track is retimed by the same time map, so tracks stay in sync.
    ///
    /// - Throws: ``CompositionError/invalidTime(trackID:parameter:time:)``,
    ///   ``CompositionError/negativeTime(trackID:parameter:time:)``,
    ///   ``CompositionError/nonPositiveDuration(trackID:parameter:duration:)``, or a track's
    ///   ``CompositionError/speedOutOfRange(trackID:sourceRange:targetRange:)`` or
    ///   ``CompositionError/timeNotRepresentable(trackID:operation:time:)``. The composition is unchanged when it
    ///   throws.
    /// - Complexity: O(n) in the total number of segments.
    public mutating func scaleTimeRange(_ range: TimeRange, toDuration duration: MediaTime) throws {
        try CompositionTrack.checkTargetRange(range, trackID: nil)
        try CompositionTrack.checkPositiveDuration(duration, trackID: nil, parameter: "duration")
        let plans = try tracks.indices.map { ($0, try tracks[$0].scalePlan(range, toDuration: duration)) }
        for case let (index, edit?) in plans { tracks[index].apply(edit) }
    }
}
