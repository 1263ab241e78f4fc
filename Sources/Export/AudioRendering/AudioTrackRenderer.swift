import SpliceFFmpeg
import Composition

/// Renders one composition audio track onto the output sample grid: each segment through an
/// ``AudioSegmentStream`` (a reversed one with `areverse`), a speed-ramped one through a ``RampedAudioStream``;
/// a freeze frame with room tone through an ``AudioSegmentStream`` looping its ``RoomToneLoop``; empty segments,
/// silent freeze frames and the time after the last segment are silence.
///
/// Reads must be sequential (each starting where the previous ended). Confined to one export worker.
final class AudioTrackRenderer {
    let track: RenderTrack
    let format: AudioOutputFormat
    private let varispeed: Bool
    private let cancellation: CancellationFlag
    /// Output sample boundaries of each segment: segment i covers [bounds[i], bounds[i + 1]).
    private let bounds: [Int64]
    private var segmentIndex = 0
    private var stream: AudioSegmentStream?
    /// The stream of the current segment when it is speed-ramped.
    private var ramped: RampedAudioStream?
    /// The last segment's stream, kept so the next segment can take over its decoder when it cuts the same source
    /// further on (decoding never restarts from the file's start for cuts made in order).
    private var previous: AudioSegmentStream?

    init(track: RenderTrack, format: AudioOutputFormat, varispeed: Bool, cancellation: CancellationFlag) {
        self.track = track
        self.format = format
        self.varispeed = varispeed
        self.cancellation = cancellation
        var bounds = track.segments.map { format.sampleIndex(of: $0.mapping.target.start) }
        bounds.append(track.segments.last.map { format.sampleIndex(of: $0.mapping.target.end) } ?? 0)
        self.bounds = bounds
    }

    /// Overwrites `channels[c][offset ..< offset + count]` with the track's samples for composition samples
    /// `[start, start + count)`.
    func read(into channels: inout [[Float]], offset: Int, start: Int64, count: Int) throws {
        var position = start
        var written = 0
        while written < count {
            while segmentIndex < track.segments.count, bounds[segmentIndex + 1] <= position {
                segmentIndex += 1
                if stream != nil { previous = stream }
                if let ramped { previous = ramped.inner }
                stream = nil
                ramped = nil
            }
            let remaining = count - written
            guard segmentIndex < track.segments.count else {
                silence(&channels, offset: offset + written, count: remaining)
                return
            }
            let segmentEnd = bounds[segmentIndex + 1]
            let chunk = Int(min(Int64(remaining), segmentEnd - position))
            let segment = track.segments[segmentIndex]
            if let source = segment.source, !segment.mapping.isEmpty, case .speedRamp(let ramp) = segment.effect {
                if ramped == nil {
                    ramped = try RampedAudioStream(
                        track: source, segment: segment, ramp: ramp, format: format, varispeed: varispeed,
                        continuing: previous, cancellation: cancellation)
                    previous = nil
                }
                try ramped?.read(into: &channels, offset: offset + written, count: chunk)
            } else if let source = segment.source, !segment.mapping.isEmpty, segment.effect != .freezeFrame(.silence) {
                if stream == nil {
                    let roomTone = segment.effect == .freezeFrame(.roomTone)
                    stream = try AudioSegmentStream(
                        track: source, source: segment.mapping.source, target: segment.mapping.target,
                        format: format, varispeed: varispeed, reversed: segment.effect == .reverse,
                        roomToneHold: roomTone ? (segment.effectMapping ?? segment.mapping).target : nil,
                        continuing: previous, cancellation: cancellation)
                    previous = nil
                }
                try stream?.read(into: &channels, offset: offset + written, count: chunk)
            } else {
                silence(&channels, offset: offset + written, count: chunk)
            }
            written += chunk
            position += Int64(chunk)
        }
    }

    private func silence(_ channels: inout [[Float]], offset: Int, count: Int) {
        for channel in channels.indices {
            for i in offset..<(offset + count) { channels[channel][i] = 0 }
        }
    }
}
