import AudioMix
import Composition
import Foundation
import VideoComposition

extension ShortFormExpansion {
    mutating func resolveClip(_ clip: ShortFormDocument.Clip, index: Int) -> PlacedClip? {
        let path = DocumentPath("clips").appending(index)
        guard let asset = assets[clip.source] else {
            problems.add(path.appending("source"), "'\(clip.source)' was not loaded")
            return nil
        }
        guard let video = asset.tracks(withMediaType: .video).first else {
            problems.add(path.appending("source"), "'\(clip.source)' has no video track (a clip needs a picture; put sound in \"music\")")
            return nil
        }
        let isStill = video.video?.isStillImage ?? false
        var failed = false

        if isStill, clip.start != nil {
            problems.add(path.appending("start"), "'\(clip.source)' is a still image: it has no start time (give only a duration)")
            failed = true
        }
        if isStill, clip.speed != nil {
            problems.add(path.appending("speed"), "'\(clip.source)' is a still image: speed has no meaning (give its duration instead)")
            failed = true
        }
        if clip.freezeFrame != nil || clip.freezeSound != nil || clip.speedRamp != nil {
            return resolveHeldOrRampedClip(clip, index: index, asset: asset, video: video, failed: failed)
        }
        let start = clip.start ?? .zero
        if !start.isNumeric || start < .zero {
            problems.add(path.appending("start"), "\(start) is not a time ≥ 0")
            return nil
        }
        let trackEnd = video.timeRange.end
        let duration: MediaTime
        if let given = clip.duration {
            guard given.isNumeric, given > .zero else {
                problems.add(path.appending("duration"), "\(given) is not a duration > 0")
                return nil
            }
            duration = given
        } else if isStill {
            duration = ShortFormDocument.defaultStillDuration
        } else {
            guard start < trackEnd else {
                problems.add(path.appending("start"), "starts at \(start.secondsText), at or after the end of '\(clip.source)' (its video lasts \(trackEnd.secondsText))")
                return nil
            }
            duration = trackEnd - start
        }
        let sourceRange = TimeRange(start: isStill ? .zero : start, duration: duration)
        if !isStill, sourceRange.end > trackEnd {
            let field = clip.duration == nil ? "start" : "duration"
            problems.add(path.appending(field),
                         "\(sourceRange.start.secondsText) + \(duration.secondsText) ends at \(sourceRange.end.secondsText), after the end of '\(clip.source)' (its video lasts \(trackEnd.secondsText))")
            failed = true
        }

        var speed: (numerator: Int64, denominator: Int64) = (1, 1)
        if let given = clip.speed {
            guard given.isFinite, given > 0, let fraction = TimeSyntax.fraction(decimal: "\(given)"), fraction.numerator > 0 else {
                problems.add(path.appending("speed"), "\(given) is not a speed > 0")
                return nil
            }
            let limit = CompositionTrack.speedLimit
            guard fraction.numerator <= limit * fraction.denominator, fraction.numerator * limit >= fraction.denominator else {
                problems.add(path.appending("speed"), "\(given) is outside the supported 1/\(limit) … \(limit)")
                return nil
            }
            speed = fraction
        }
        let outputDuration = duration.multiplied(byRatio: speed.denominator, over: speed.numerator)
        guard outputDuration.isNumeric, outputDuration > .zero, !outputDuration.hasBeenRounded else {
            problems.add(path.appending("speed"), "the clip's duration \(duration.secondsText) at speed \(clip.speed ?? 1) cannot be represented exactly")
            return nil
        }

        if let volume = clip.volume, !(volume.isFinite && volume >= 0) {
            problems.add(path.appending("volume"), "\(volume) is not a gain ≥ 0 (1 = unchanged, 0 = silent)")
            failed = true
        }
        for (name, fade) in [("fadeIn", clip.fadeIn), ("fadeOut", clip.fadeOut)] {
            guard let fade else { continue }
            if !fade.isNumeric || fade <= .zero {
                problems.add(path.appending(name), "\(fade) is not a duration > 0")
                failed = true
            } else if fade > outputDuration {
                problems.add(path.appending(name), "\(fade.secondsText) is longer than the clip (\(outputDuration.secondsText))")
                failed = true
            }
        }
        if let fadeIn = clip.fadeIn, let fadeOut = clip.fadeOut, fadeIn.isNumeric, fadeOut.isNumeric, fadeIn + fadeOut > outputDuration {
            problems.add(path.appending("fadeOut"),
                         "the fade-in (\(fadeIn.secondsText)) and fade-out (\(fadeOut.secondsText)) overlap: the clip lasts \(outputDuration.secondsText)")
            failed = true
        }

        let audio = isStill ? nil : asset.tracks(withMediaType: .audio).first
        var audioRange: TimeRange?
        if let audio {
            let available = sourceRange.intersection(audio.timeRange)
            if available.isValid, available.duration > .zero { audioRange = available }
        }
        if failed { return nil }
        return PlacedClip(
            index: index, clip: clip, asset: asset, video: video, audio: audio, sourceRange: sourceRange,
            audioRange: audioRange, duration: outputDuration, speed: speed)
    }

    /// Checks transitions against the clips they join, sets the overlaps, start times and lanes.
    mutating func placeTransitions(_ placed: inout [PlacedClip]) {
        for index in placed.indices {
            guard let transition = placed[index].clip.transition else { continue }
            let path = DocumentPath("clips").appending(index).appending("transition")
            guard index + 1 < placed.count else {
                problems.add(path, "the last clip has no next clip to transition to")
                continue
            }
            let duration = transition.duration
            guard duration.isNumeric, duration > .zero else {
                problems.add(path.appending("duration"), "\(duration) is not a duration > 0")
                continue
            }
            if duration > placed[index].duration || duration > placed[index + 1].duration {
                problems.add(path.appending("duration"),
                             "\(duration.secondsText) is longer than clip \(index) (\(placed[index].duration.secondsText)) or clip \(index + 1) (\(placed[index + 1].duration.secondsText)) it joins")
                continue
            }
            if placed[index].clip.fadeOut != nil {
                problems.add(DocumentPath("clips").appending(index).appending("fadeOut"),
                             "a clip with a transition to the next one cannot also fade out")
            }
            if placed[index + 1].clip.fadeIn != nil {
                problems.add(DocumentPath("clips").appending(index + 1).appending("fadeIn"),
                             "a clip with a transition into it cannot also fade in")
            }
            placed[index].transitionOut = duration
            placed[index + 1].transitionIn = duration
        }
        for index in placed.indices {
            let clip = placed[index]
            if clip.transitionIn + clip.transitionOut > clip.duration {
                problems.add(DocumentPath("clips").appending(index).appending("transition").appending("duration"),
                             "the transitions into (\(clip.transitionIn.secondsText)) and out of (\(clip.transitionOut.secondsText)) clip \(index) overlap: it lasts \(clip.duration.secondsText)")
            }
            if let fadeIn = clip.clip.fadeIn, fadeIn.isNumeric, fadeIn + clip.transitionOut > clip.duration {
                problems.add(DocumentPath("clips").appending(index).appending("fadeIn"),
                             "the fade-in (\(fadeIn.secondsText)) overlaps the transition to the next clip")
            }
            if let fadeOut = clip.clip.fadeOut, fadeOut.isNumeric, fadeOut + clip.transitionIn > clip.duration {
                problems.add(DocumentPath("clips").appending(index).appending("fadeOut"),
                             "the fade-out (\(fadeOut.secondsText)) overlaps the transition from the previous clip")
            }
            if index > 0 {
                let previous = placed[index - 1]
                placed[index].start = previous.end - previous.transitionOut
                placed[index].lane = previous.transitionOut > .zero ? 1 - previous.lane : previous.lane
            }
        }
    }

    func segment(of clip: PlacedClip, track: AssetTrack, range: TimeRange) -> DocumentSegment {
        if let held = clip.clip.freezeFrame {
            return DocumentSegment(
                source: clip.clip.source, track: .trackID(track.trackID), at: clip.start, toDuration: clip.duration,
                freezeFrame: held, freezeSound: clip.clip.freezeSound)
        }
        if let ramp = clip.clip.speedRamp {
            return DocumentSegment(
                source: clip.clip.source, track: .trackID(track.trackID), timeRange: range, at: clip.start, speedRamp: ramp)
        }
        let output = range.duration.multiplied(byRatio: clip.speed.denominator, over: clip.speed.numerator)
        return DocumentSegment(
            source: clip.clip.source, track: .trackID(track.trackID), timeRange: range, at: clip.start,
            toDuration: output == range.duration ? nil : output, reverse: clip.clip.reverse)
    }

    mutating func renderSize(first: PlacedClip) -> Size {
        if let size = document.renderSize {
            if size.width <= 0 || size.height <= 0 || size.width % 2 != 0 || size.height % 2 != 0 {
                problems.add("renderSize", "\(size.width) × \(size.height) pixels: width and height must be even numbers > 0 (4:2:0 video)")
            }
            return size
        }
        let display = first.video.video?.displaySize ?? .zero
        return Size(width: display.width + display.width % 2, height: display.height + display.height % 2)
    }
}
