import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Produces exactly the output samples of (the exported part of) a speed-ramped audio segment
/// (``SegmentTimeEffect/speedRamp(_:)``): the source range is first rendered at speed 1 on the output grid by an
/// ``AudioSegmentStream``, then retimed along the ramp's integral — the same map the pictures follow.
///
/// - Varispeed (`AudioTimePitchAlgorithm.varispeed`): output sample `n` reads the source at
///   `(∫₀^{τ(n)} rate − ∫₀^{τ(0)} rate) × sampleRate` samples, linearly interpolated between the two neighbouring
///   source samples (computed in Swift; the pitch follows the rate, as a tape does). The integral is evaluated
///   exactly every 64 output samples and linearly between.
/// - Pitch kept (`.spectral`, `.timeDomain`): the speed-1 samples go through FFmpeg's `atempo` (WSOLA, time
///   domain), fed in blocks of 256 samples; before each block the tempo is set by a runtime command (only when it
///   changed) to the rate at the output time atempo is producing — the samples pulled so far, since a new tempo
///   applies to the fragment being made, not to the input just fed (as many `atempo` instances in a chain as a
///   rate below ½ needs). Not sample-exact: WSOLA places sound to within a fragment. Measured on a 1× → 2× → 1×
///   ramp (tests): bursts heard 3 ms late, 4 ms and 25 ms early — within one frame at 30 fps; pitch within 1 %.
///
/// The result is padded with silence or cut so that it fills its composition range to the sample.
/// Confined to one export worker.
final class RampedAudioStream {
    let format: AudioOutputFormat
    /// Output samples this part must produce.
    let sampleCount: Int64
    private(set) var produced: Int64 = 0
    /// The speed-1 rendering of the part's source range, on the output grid.
    let inner: AudioSegmentStream
    private let ramp: SpeedRamp
    /// Offset of the part's first output sample from the ramp's start (composition seconds).
    private let rampStart: MediaTime
    /// Source seconds the ramp has read by `rampStart`.
    private let elapsedAtStart: Double
    private let varispeed: Bool

    // Varispeed: a window of speed-1 samples, `window[c][i]` is inner sample `windowStart + i`.
    private var window: [[Float]]
    private var windowStart: Int64 = 0
    private var innerRead: Int64 = 0
    /// Knots of the position map: the inner-sample position of output samples `knotIndex × 64` and the next knot.
    private var knots: (index: Int64, from: Double, to: Double) = (-1, 0, 0)
    private static let knotSpacing: Int64 = 64

    // Pitch kept: the atempo graph, the block being fed, the converted output and where we are in it.
    private let graph: FilterGraph?
    private let stages: Int
    private let block: Frame
    private let converted: Frame
    private var convertedOffset = 0
    private var hasConverted = false
    private var graphDrained = false
    private var fedEnd = false
    /// Output samples pulled from the graph so far.
    private var pulled: Int64 = 0
    /// The tempo last set on each stage (commands are sent only when it changes).
    private var lastTempo = 0.0
    private static let blockSize = 256

    /// Prepares the part of a ramped segment covering `segment.mapping.target` (export clock).
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` naming the file; ``ExportError/renderingFailed(stage:reason:)``.
    init(track: AssetTrack, segment: RenderSegment, ramp: SpeedRamp, format: AudioOutputFormat, varispeed: Bool,
         continuing previous: AudioSegmentStream?, cancellation: CancellationFlag) throws {
        self.format = format
        self.ramp = ramp
        self.varispeed = varispeed
        let target = segment.mapping.target
        sampleCount = format.sampleIndex(of: target.end) - format.sampleIndex(of: target.start)
        rampStart = target.start - (segment.effectMapping?.target.start ?? target.start)
        elapsedAtStart = ramp.sourceOffset(at: rampStart)?.seconds ?? 0
        let source = segment.mapping.source
        inner = try AudioSegmentStream(
            track: track, source: source, target: TimeRange(start: .zero, duration: source.duration), format: format,
            varispeed: false, continuing: previous, cancellation: cancellation)
        window = Array(repeating: [], count: format.channelCount)
        block = try Frame()
        converted = try Frame()
        let slowest = ramp.keyframes.map { SpeedRamp.quantized($0.value) }.min() ?? 1
        stages = slowest < 0.5 ? Int((log2(1 / slowest)).rounded(.up)) : 1
        if varispeed {
            graph = nil
        } else {
            let first = pow(ramp.rate(at: rampStart), 1 / Double(stages))
            lastTempo = first
            let chain = (0..<stages).map { "atempo@ramp\($0)=tempo=\(first)" }.joined(separator: ",")
            let description = "[in]\(chain),aformat=sample_fmts=fltp:sample_rates=\(format.sampleRate):"
                + "channel_layouts=\(format.layoutName)[out]"
            do {
                graph = try FilterGraph(
                    description: description,
                    sources: [.audio(.init(
                        label: "in", sampleRate: format.sampleRate, sampleFormat: AV_SAMPLE_FMT_FLTP.rawValue,
                        channelLayout: format.layoutName, timeBase: AVRational(num: 1, den: Int32(format.sampleRate))))],
                    sinkLabels: ["out"], sinkIsAudio: [true], threads: 1)
            } catch {
                throw ExportError.renderingFailed(stage: "building the ramped audio graph '\(description)'", reason: "\(error)")
            }
        }
    }

    /// Writes the next `count` output samples into `channels` from `offset` (overwriting); silence past the source.
    func read(into channels: inout [[Float]], offset: Int, count: Int) throws {
        let wanted = Int(max(0, min(Int64(count), sampleCount - produced)))
        let written = varispeed
            ? try readVarispeed(into: &channels, offset: offset, count: wanted)
            : try readTempo(into: &channels, offset: offset, count: wanted)
        if written < count {
            for channel in 0..<format.channelCount {
                for i in written..<count { channels[channel][offset + i] = 0 }
            }
        }
        produced += Int64(count)
    }

    /// The inner-sample position (fractional) of output sample `n` of this part.
    private func position(_ n: Int64) -> Double {
        let knot = n / Self.knotSpacing
        if knot != knots.index {
            knots = (knot, exactPosition(knot * Self.knotSpacing), exactPosition((knot + 1) * Self.knotSpacing))
        }
        let fraction = Double(n - knot * Self.knotSpacing) / Double(Self.knotSpacing)
        return knots.from + (knots.to - knots.from) * fraction
    }

    /// `(∫ rate up to output sample n) − (∫ rate up to the part's start)`, in inner samples.
    private func exactPosition(_ n: Int64) -> Double {
        let time = rampStart + MediaTime(value: n, timescale: Int32(format.sampleRate))
        let elapsed = ramp.sourceOffset(at: min(time, ramp.duration))?.seconds ?? 0
        return (elapsed - elapsedAtStart) * Double(format.sampleRate)
    }

    private func readVarispeed(into channels: inout [[Float]], offset: Int, count: Int) throws -> Int {
        for i in 0..<count {
            let p = max(0, position(produced + Int64(i)))
            let index = Int64(p.rounded(.down))
            let fraction = Float(p - Double(index))
            try ensureWindow(through: index + 1)
            for channel in 0..<format.channelCount {
                let a = sample(channel, index), b = sample(channel, index + 1)
                channels[channel][offset + i] = a + (b - a) * fraction
            }
        }
        return count
    }

    private func sample(_ channel: Int, _ index: Int64) -> Float {
        let local = Int(index - windowStart)
        return local >= 0 && local < window[channel].count ? window[channel][local] : 0
    }

    /// Reads inner samples until `index` is in the window, dropping what lies well before it.
    private func ensureWindow(through index: Int64) throws {
        while innerRead <= index, inner.produced < inner.sampleCount {
            let chunk = Int(min(1024, inner.sampleCount - inner.produced))
            var buffer = Array(repeating: [Float](repeating: 0, count: chunk), count: format.channelCount)
            try inner.read(into: &buffer, offset: 0, count: chunk)
            for channel in 0..<format.channelCount { window[channel].append(contentsOf: buffer[channel]) }
            innerRead += Int64(chunk)
        }
        let drop = Int(index - windowStart) - 4
        if drop > 4096 {
            for channel in 0..<format.channelCount { window[channel].removeFirst(drop) }
            windowStart += Int64(drop)
        }
    }

    private func readTempo(into channels: inout [[Float]], offset: Int, count: Int) throws -> Int {
        guard let graph else { return 0 }
        var written = 0
        while written < count {
            if !hasConverted || convertedOffset >= converted.sampleCount {
                if graphDrained { break }
                switch try graph.pull(from: 0, into: converted) {
                case .frame:
                    convertedOffset = 0
                    hasConverted = true
                    pulled += Int64(converted.sampleCount)
                case .endOfStream:
                    graphDrained = true
                    continue
                case .needsInput:
                    try feedBlock(graph)
                    continue
                }
            }
            let available = min(converted.sampleCount - convertedOffset, count - written)
            for channel in 0..<format.channelCount {
                guard let plane = converted.plane(channel) else { continue }
                plane.withMemoryRebound(to: Float.self, capacity: converted.sampleCount) { samples in
                    for i in 0..<available { channels[channel][offset + written + i] = samples[convertedOffset + i] }
                }
            }
            convertedOffset += available
            written += available
        }
        return written
    }

    /// Pushes the next block of speed-1 samples, after setting the tempo for where it falls; end of stream after the
    /// last one.
    private func feedBlock(_ graph: FilterGraph) throws {
        guard !fedEnd, inner.produced < inner.sampleCount else {
            if !fedEnd { try graph.push(nil, to: 0) }
            fedEnd = true
            return
        }
        // atempo applies a new tempo to the fragment it is producing now, not to the block fed now (it holds about a
        // window of input): so the tempo is the rate at the output time being produced, the samples pulled so far.
        let offset = rampStart + MediaTime(value: min(pulled, sampleCount), timescale: Int32(format.sampleRate))
        let tempo = pow(ramp.rate(at: offset), 1 / Double(stages))
        if abs(tempo - lastTempo) > 1e-9 {
            for stage in 0..<stages {
                try graph.sendCommand(target: "atempo@ramp\(stage)", command: "tempo", argument: "\(tempo)")
            }
            lastTempo = tempo
        }
        let count = Int(min(Int64(Self.blockSize), inner.sampleCount - inner.produced))
        let start = inner.produced
        var buffer = Array(repeating: [Float](repeating: 0, count: count), count: format.channelCount)
        try inner.read(into: &buffer, offset: 0, count: count)
        try block.allocateAudio(
            sampleCount: count, sampleFormat: AV_SAMPLE_FMT_FLTP, sampleRate: format.sampleRate,
            channelCount: format.channelCount)
        for channel in 0..<format.channelCount {
            guard let plane = block.plane(channel) else { continue }
            plane.withMemoryRebound(to: Float.self, capacity: count) { samples in
                for i in 0..<count { samples[i] = buffer[channel][i] }
            }
        }
        block.pts = start
        try graph.push(block, to: 0)
    }
}
