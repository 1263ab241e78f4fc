import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Mixes every audio track of an ``AudioPlan`` into encoder-sized frames: each track rendered on the output sample
/// grid (``AudioTrackRenderer``), multiplied by its audio-mix gain, and summed — no automatic normalisation, so a
/// track's level never depends on how many others play (AVFoundation's audio mix sums its inputs).
///
/// Gain is the model's `volume(at:)`, evaluated at the edges of 64-sample blocks (1.3 ms at 48 kHz) and
/// interpolated linearly inside a block: exact for linear ramps whose keys fall on block edges, and within one
/// block of the model elsewhere. Crossfade gains (``CrossfadeWindow``) are applied to every sample exactly.
final class AudioMixer {
    let plan: AudioPlan
    let frameSize: Int
    /// The next composition sample to render.
    private(set) var position: Int64 = 0
    private let renderers: [AudioTrackRenderer]
    private var scratch: [[Float]]
    private var mix: [[Float]]
    private let frame: Frame
    private static let blockSize = 64

    init(plan: AudioPlan, frameSize: Int, cancellation: CancellationFlag) throws {
        self.plan = plan
        self.frameSize = frameSize
        renderers = plan.tracks.map {
            AudioTrackRenderer(track: $0, format: plan.format, varispeed: plan.varispeedTrackIDs.contains($0.trackID),
                               cancellation: cancellation)
        }
        scratch = Array(repeating: Array(repeating: 0, count: frameSize), count: plan.format.channelCount)
        mix = scratch
        frame = try Frame()
    }

    /// Renders the next chunk (`frameSize` samples, fewer at the very end) as a planar-float frame with
    /// `pts` = its first sample index, and hands it to `emit`.
    func renderChunk(emit: (Frame) throws -> Void) throws {
        let count = Int(min(Int64(frameSize), plan.sampleCount - position))
        guard count > 0 else { return }
        for channel in mix.indices {
            for i in 0..<count { mix[channel][i] = 0 }
        }
        for renderer in renderers {
            try renderer.read(into: &scratch, offset: 0, start: position, count: count)
            applyCrossfades(renderer.track.trackID, count: count)
            let gain = plan.gains[renderer.track.trackID]
            var blockStart = 0
            while blockStart < count {
                let blockEnd = min(blockStart + Self.blockSize, count)
                let g0 = gain.map { Float($0(time(ofSample: position + Int64(blockStart)))) } ?? 1
                let g1 = gain.map { Float($0(time(ofSample: position + Int64(blockEnd)))) } ?? 1
                let step = (g1 - g0) / Float(blockEnd - blockStart)
                for channel in mix.indices {
                    var g = g0
                    for i in blockStart..<blockEnd {
                        mix[channel][i] += scratch[channel][i] * g
                        g += step
                    }
                }
                blockStart = blockEnd
            }
        }
        try frame.allocateAudio(sampleCount: count, sampleFormat: AV_SAMPLE_FMT_FLTP, sampleRate: plan.format.sampleRate,
                                channelCount: plan.format.channelCount)
        for channel in mix.indices {
            guard let plane = frame.plane(channel) else { continue }
            plane.withMemoryRebound(to: Float.self, capacity: count) { destination in
                mix[channel].withUnsafeBufferPointer { source in
                    destination.update(from: source.baseAddress!, count: count)
                }
            }
        }
        frame.pts = position
        position += Int64(count)
        try emit(frame)
    }

    /// Multiplies the track's samples in `scratch` by the gains of the crossfades it takes part in, sample by
    /// sample (the curves are not linear, so no block interpolation here).
    private func applyCrossfades(_ trackID: Int32, count: Int) {
        guard let windows = plan.crossfades[trackID] else { return }
        for window in windows where window.overlaps(start: position, count: count) {
            let from = Int(max(window.firstSample - position, 0))
            let to = Int(min(window.firstSample + window.sampleCount - position, Int64(count)))
            for i in from..<to {
                let fraction = Double(position + Int64(i) - window.firstSample) / Double(window.sampleCount)
                let gain = Float(window.gain(fraction))
                for channel in scratch.indices { scratch[channel][i] *= gain }
            }
        }
    }

    private func time(ofSample index: Int64) -> MediaTime {
        MediaTime(value: index, timescale: Int32(plan.format.sampleRate))
    }
}
