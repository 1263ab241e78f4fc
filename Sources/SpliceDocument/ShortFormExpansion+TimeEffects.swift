import Composition

extension ShortFormExpansion {
    /// Resolves a clip with a freeze frame (`freezeFrame`, held for `duration`, 3 s by default; silent, or with
    /// `"freezeSound": "roomTone"` the source's sound looped on the clip's audio track) or a speed
    /// ramp (`speedRamp`, reading from `start`; its sound ramped with it when the sound covers the ramp's source
    /// range, left out otherwise), reporting conflicting fields at their paths.
    mutating func resolveHeldOrRampedClip(
        _ clip: ShortFormDocument.Clip, index: Int, asset: Asset, video: AssetTrack, failed: Bool
    ) -> PlacedClip? {
        let path = DocumentPath("clips").appending(index)
        var failed = failed
        for (name, present) in [("speed", clip.speed != nil), ("reverse", clip.reverse == true)] where present {
            problems.add(path.appending(name), "a clip with a freeze frame or a speed ramp cannot also have \(name)")
            failed = true
        }
        if clip.freezeSound != nil, clip.freezeFrame == nil {
            problems.add(path.appending("freezeSound"), "freezeSound is the sound of a freeze frame: set freezeFrame too")
            return nil
        }
        if let held = clip.freezeFrame {
            if clip.speedRamp != nil {
                problems.add(path.appending("speedRamp"), "a clip is a freeze frame or a speed ramp, not both")
                failed = true
            }
            if clip.start != nil {
                problems.add(path.appending("start"), "a freeze frame holds the picture at freezeFrame; leave start out")
                failed = true
            }
            guard held.isNumeric, held >= .zero, held < video.timeRange.end else {
                problems.add(path.appending("freezeFrame"),
                             "\(held) is not a time inside '\(clip.source)' (its video lasts \(video.timeRange.end.secondsText))")
                return nil
            }
            let duration = clip.duration ?? ShortFormDocument.defaultStillDuration
            guard duration.isNumeric, duration > .zero else {
                problems.add(path.appending("duration"), "\(duration) is not a duration > 0")
                return nil
            }
            var audio: AssetTrack?
            if clip.freezeSound == .roomTone {
                audio = asset.tracks(withMediaType: .audio).first
                if audio == nil {
                    problems.add(path.appending("freezeSound"), "'\(clip.source)' has no sound to loop as room tone")
                    failed = true
                }
            }
            if failed { return nil }
            let range = TimeRange(start: held, duration: duration)
            return PlacedClip(
                index: index, clip: clip, asset: asset, video: video, audio: audio,
                sourceRange: range, audioRange: audio == nil ? nil : range, duration: duration, speed: (1, 1))
        }
        guard let ramp = clip.speedRamp else { return nil }
        if clip.duration != nil {
            problems.add(path.appending("duration"), "a speed ramp sets the clip's duration (speedRamp.duration); leave duration out")
            failed = true
        }
        if let problem = ramp.problem() {
            problems.add(path.appending("speedRamp"), "\(problem)")
            return nil
        }
        guard let sourceDuration = ramp.sourceDuration else {
            problems.add(path.appending("speedRamp"), "the ramp's integral is not an exact time")
            return nil
        }
        let start = clip.start ?? .zero
        let sourceRange = TimeRange(start: start, duration: sourceDuration)
        guard start.isNumeric, start >= .zero, sourceRange.end <= video.timeRange.end else {
            problems.add(path.appending("speedRamp"),
                         "the ramp reads \(start.secondsText) to \(sourceRange.end.secondsText) of '\(clip.source)', whose video lasts \(video.timeRange.end.secondsText)")
            return nil
        }
        if failed { return nil }
        let audio = asset.tracks(withMediaType: .audio).first.flatMap { $0.timeRange.contains(sourceRange) ? $0 : nil }
        return PlacedClip(
            index: index, clip: clip, asset: asset, video: video, audio: audio, sourceRange: sourceRange,
            audioRange: audio == nil ? nil : sourceRange, duration: ramp.duration, speed: (1, 1))
    }
}
