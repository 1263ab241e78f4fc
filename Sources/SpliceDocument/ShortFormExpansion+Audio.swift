import AudioMix
import Composition
import Foundation
import VideoComposition

extension ShortFormExpansion {
    func audioParameters(_ placed: [PlacedClip], trackIDs: [Int: Int32]) -> [AudioMixInputParameters] {
        var parameters: [Int: AudioMixInputParameters] = [:]
        var level: [Int: Double] = [:]  // the gain in force on each lane
        for clip in placed where clip.audioRange != nil {
            guard let trackID = trackIDs[clip.lane] else { continue }
            var lane = parameters[clip.lane] ?? AudioMixInputParameters(trackID: trackID)
            let volume = clip.clip.volume ?? 1
            let curveIn = offsetCurve(placed, before: clip), curveOut = clip.clip.transition?.audioCurve
            if clip.transitionIn > .zero, curveIn != nil {
                // The crossfade (``audioCrossfades(_:trackIDs:)``) shapes the sound; the lane plays at its volume.
                if level[clip.lane, default: 1] != volume { lane.setVolume(volume, at: clip.start) }
            } else if clip.transitionIn > .zero {
                lane.setVolumeRamp(fromStartVolume: 0, toEndVolume: volume, timeRange: TimeRange(start: clip.start, duration: clip.transitionIn))
            } else if let fadeIn = clip.clip.fadeIn {
                lane.setVolumeRamp(fromStartVolume: 0, toEndVolume: volume, timeRange: TimeRange(start: clip.start, duration: fadeIn))
            } else if level[clip.lane, default: 1] != volume {
                lane.setVolume(volume, at: clip.start)
            }
            level[clip.lane] = volume
            let fadeOut = clip.transitionOut > .zero ? (curveOut == nil ? clip.transitionOut : nil) : clip.clip.fadeOut
            if let fadeOut {
                lane.setVolumeRamp(fromStartVolume: volume, toEndVolume: 0, timeRange: TimeRange(start: clip.end - fadeOut, end: clip.end))
                level[clip.lane] = 0
            }
            parameters[clip.lane] = lane
        }
        return parameters.keys.sorted().compactMap { parameters[$0] }.filter { !$0.volumes.isEmpty }
    }

    /// The audio curve of the transition into `clip` (the previous clip's), or nil.
    private func offsetCurve(_ placed: [PlacedClip], before clip: PlacedClip) -> AudioFadeCurve? {
        guard let position = placed.firstIndex(where: { $0.index == clip.index }), position > 0 else { return nil }
        return placed[position - 1].clip.transition?.audioCurve
    }

    /// The crossfades of transitions that name an `audioCurve`: from the outgoing clip's lane to the incoming
    /// one's over their overlap (both clips must have sound).
    func audioCrossfades(_ placed: [PlacedClip], trackIDs: [Int: Int32]) -> [AudioCrossfade] {
        var crossfades: [AudioCrossfade] = []
        for (offset, clip) in placed.enumerated() where offset + 1 < placed.count && clip.transitionOut > .zero {
            let next = placed[offset + 1]
            guard let curve = clip.clip.transition?.audioCurve, clip.audioRange != nil, next.audioRange != nil,
                  let from = trackIDs[clip.lane], let to = trackIDs[next.lane] else { continue }
            crossfades.append(AudioCrossfade(from: from, to: to, timeRange: TimeRange(start: next.start, end: clip.end), curve: curve))
        }
        return crossfades
    }

    mutating func musicTrack(
        _ music: ShortFormDocument.Music, trackID: Int32, total: MediaTime
    ) -> (DocumentTrack, AudioMixInputParameters?)? {
        let path = DocumentPath("music")
        guard let asset = assets[music.source] else {
            problems.add(path.appending("source"), "'\(music.source)' was not loaded")
            return nil
        }
        guard let audio = asset.tracks(withMediaType: .audio).first else {
            problems.add(path.appending("source"), "'\(music.source)' has no audio track")
            return nil
        }
        let start = music.start ?? .zero
        let trackEnd = audio.timeRange.end
        guard start.isNumeric, start >= .zero, start < trackEnd else {
            problems.add(path.appending("start"), "\(start.secondsText) is not a time from 0 to the end of '\(music.source)' (\(trackEnd.secondsText))")
            return nil
        }
        var length = total
        if let duration = music.duration {
            guard duration.isNumeric, duration > .zero else {
                problems.add(path.appending("duration"), "\(duration) is not a duration > 0")
                return nil
            }
            if duration > total {
                problems.add(path.appending("duration"), "\(duration.secondsText) is longer than the clips (\(total.secondsText)); music never extends the edit")
                return nil
            }
            length = duration
        }
        var segments: [DocumentSegment] = []
        var at = MediaTime.zero
        var from = start
        while at < length {
            let piece = Swift.min(trackEnd - from, length - at)
            segments.append(DocumentSegment(
                source: music.source, track: .trackID(audio.trackID), timeRange: TimeRange(start: from, duration: piece), at: at))
            at = at + piece
            from = .zero
            if !(music.loop ?? false) { break }
        }
        let end = at
        let volume = music.volume ?? 1
        if !(volume.isFinite && volume >= 0) {
            problems.add(path.appending("volume"), "\(volume) is not a gain ≥ 0 (1 = unchanged, 0 = silent)")
            return nil
        }
        var parameters = AudioMixInputParameters(trackID: trackID)
        for (name, fade) in [("fadeIn", music.fadeIn), ("fadeOut", music.fadeOut)] {
            guard let fade else { continue }
            if !fade.isNumeric || fade <= .zero || fade > end {
                problems.add(path.appending(name), "\(fade.secondsText) is not a duration from 0 to the music's length (\(end.secondsText))")
                return nil
            }
        }
        if let fadeIn = music.fadeIn, let fadeOut = music.fadeOut, fadeIn + fadeOut > end {
            problems.add(path.appending("fadeOut"), "the fade-in and fade-out overlap: the music lasts \(end.secondsText)")
            return nil
        }
        if let fadeIn = music.fadeIn {
            parameters.setVolumeRamp(fromStartVolume: 0, toEndVolume: volume, timeRange: TimeRange(start: .zero, duration: fadeIn))
        } else if volume != 1 {
            parameters.setVolume(volume, at: .zero)
        }
        if let fadeOut = music.fadeOut {
            parameters.setVolumeRamp(fromStartVolume: volume, toEndVolume: 0, timeRange: TimeRange(start: end - fadeOut, end: end))
        }
        let track = DocumentTrack(trackID: trackID, mediaType: .audio, segments: segments)
        return (track, parameters.volumes.isEmpty ? nil : parameters)
    }
}
