import SpliceFFmpeg
import AudioMix
import Composition
import Foundation
import VideoComposition

extension ExportPlanner {
    func makeAudioPlan(_ tracks: [CompositionTrack], settings: AudioSettings, range: TimeRange) throws -> AudioPlan {
        let mix = request.audioMix ?? MutableAudioMix()
        let issues = mix.validate(for: composition)
        guard issues.isEmpty else { throw ExportError.invalidAudioMix(issues) }
        var gains: [Int32: @Sendable (MediaTime) -> Double] = [:]
        var varispeed: Set<Int32> = []
        for track in tracks {
            let preferred = track.preferredVolume
            if let parameters = mix.inputParameters(forTrackID: track.trackID) {
                let shift = range.start
                gains[track.trackID] = { parameters.volume(at: $0 + shift) * preferred }
                if parameters.audioTimePitchAlgorithm == .varispeed { varispeed.insert(track.trackID) }
            } else if preferred != 1 {
                gains[track.trackID] = { _ in preferred }
            }
        }
        let format = AudioOutputFormat(sampleRate: settings.sampleRate, channelCount: settings.channelCount)
        var crossfades: [Int32: [CrossfadeWindow]] = [:]
        for crossfade in mix.crossfades {
            // On the output grid, counted from the export range's start (a crossfade cut by the range keeps its
            // curve: the window may start before sample 0).
            let first = format.sampleIndex(of: crossfade.timeRange.start - range.start)
            let count = format.sampleIndex(of: crossfade.timeRange.end - range.start) - first
            guard count > 0 else { continue }
            for trackID in [crossfade.fromTrackID, crossfade.toTrackID] {
                crossfades[trackID, default: []].append(CrossfadeWindow(
                    firstSample: first, sampleCount: count,
                    gain: { crossfade.gain(forTrackID: trackID, fraction: $0) ?? 1 }))
            }
        }
        return AudioPlan(
            format: format, duration: range.duration, tracks: tracks.map { RenderTrack($0, exporting: range) },
            gains: gains, varispeedTrackIDs: varispeed, crossfades: crossfades, truePeakLimit: request.truePeakLimit)
    }
}

extension RenderColor {
    init(_ color: Color) {
        self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }
}
