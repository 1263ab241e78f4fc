import Composition

extension DocumentComposition {
    /// Inserts a freeze frame (`freezeFrame` + `toDuration`) or a speed ramp (`speedRamp`, from `timeRange.start`)
    /// segment at `at`, reporting problems at the segment's fields.
    ///
    /// - Returns: the inserted segment's composition duration, or nil when it was not inserted (a problem was added).
    func insertHeldOrRamped(
        _ segment: DocumentSegment, of source: AssetTrack, at: MediaTime, after end: MediaTime, trackID: Int32,
        into composition: inout MutableComposition, path: DocumentPath, problems: inout ProblemList
    ) -> MediaTime? {
        if at.isNumeric, at < end {
            problems.add(path.appending("at"),
                         "starts at \(at.secondsText), before the previous segment of this track ends at \(end.secondsText) (segments are in time order and do not overlap)")
            return nil
        }
        if segment.freezeFrame != nil, segment.speedRamp != nil {
            problems.add(path.appending("speedRamp"), "a segment is a freeze frame or a speed ramp, not both")
            return nil
        }
        if segment.freezeSound != nil, segment.freezeFrame == nil {
            problems.add(path.appending("freezeSound"), "freezeSound is the sound of a freeze frame: set freezeFrame too")
            return nil
        }
        if segment.reverse == true {
            problems.add(path.appending("reverse"), "a freeze frame or a speed ramp cannot also be reversed")
            return nil
        }
        if let held = segment.freezeFrame {
            guard let duration = segment.toDuration else {
                problems.add(path.appending("toDuration"), "a freeze frame needs toDuration: how long the picture is held")
                return nil
            }
            if segment.timeRange != nil {
                problems.add(path.appending("timeRange"), "a freeze frame holds the picture at freezeFrame; leave timeRange out")
                return nil
            }
            do {
                try composition.updateTrack(withTrackID: trackID) {
                    try $0.insertFreezeFrame(
                        at: held, of: source, duration: duration, at: at, sound: segment.freezeSound ?? .silence)
                }
                return duration
            } catch {
                problems.add(path.appending("freezeFrame"), "\(error)")
                return nil
            }
        }
        guard let ramp = segment.speedRamp else { return nil }
        if segment.toDuration != nil {
            problems.add(path.appending("toDuration"), "a speed ramp sets its own duration (speedRamp.duration); leave toDuration out")
            return nil
        }
        let start = segment.timeRange?.start ?? .zero
        if let range = segment.timeRange, let integral = ramp.sourceDuration, range.duration != integral {
            problems.add(path.appending("timeRange"),
                         "the speed ramp reads \(integral.secondsText) of source, not \(range.duration.secondsText): set timeRange.duration to \(integral.secondsText) or give only the start")
            return nil
        }
        do {
            try composition.updateTrack(withTrackID: trackID) { try $0.insertSpeedRamp(ramp, from: start, of: source, at: at) }
            return ramp.duration
        } catch {
            problems.add(path.appending("speedRamp"), "\(error)")
            return nil
        }
    }
}
