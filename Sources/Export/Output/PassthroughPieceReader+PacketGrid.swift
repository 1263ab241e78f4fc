import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

extension PassthroughPieceReader {
    /// Audio: the first of the piece's cuts that falls off its source's packet grid, described for
    /// ``PassthroughReport`` ("segments[1] of track 2 (clip.mp4 track 2) starts at 1.000 s of its source, 896 samples
    /// past a packet boundary"), or nil when its start and its end both lie on packet boundaries — a boundary within
    /// half a sample counts (containers that store milliseconds round the packets' times), and an end at or after the
    /// end of the source's packets is on the grid. The priming packet the demuxer marks as discarded counts as a
    /// packet: its end is the source's time 0. Reads the few packets around each cut, not the piece; nil for video.
    /// Call it on a reader that has not handed out packets.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func offGridCut() throws -> String? {
        guard piece.source.mediaType == .audio else { return nil }
        let sampleRate = piece.source.audio?.sampleRate ?? source.audioFrameSize.sampleRate
        guard sampleRate > 0 else { return nil }
        if let past = try samplesPastBoundary(piece.sourceRange.start, sampleRate: sampleRate) {
            return "\(piece.name(track: trackID)) starts at \(PassthroughPlan.display(piece.sourceRange.start)) of its "
                + "source, \(past) samples past a packet boundary"
        }
        if let past = try samplesPastBoundary(piece.sourceRange.end, sampleRate: sampleRate) {
            return "\(piece.name(track: trackID)) ends at \(PassthroughPlan.display(piece.sourceRange.end)) of its "
                + "source, \(past) samples past a packet boundary"
        }
        return nil
    }

    /// How many samples `cut` (source time) lies past the packet boundary before it, rounded; nil when a packet
    /// boundary lies within half a sample of it or the source's packets end at or before it.
    private func samplesPastBoundary(_ cut: MediaTime, sampleRate: Int) throws -> Int? {
        let target = cut + piece.source.startTimeOffset
        // One packet in the stream's time base (the codec's frame size; AAC's 1024 samples when unstated).
        let frameSize = source.audioFrameSize.samples > 0 ? source.audioFrameSize.samples : 1024
        let length = av_rescale_q(Int64(frameSize), AVRational(num: 1, den: Int32(sampleRate)), timeBase)
        if let timestamp = target.timestamp(in: timeBase) {
            // Two packets early, so the packet that holds the cut is read; a seek that fails reads from the start.
            try? source.seek(toTimestamp: timestamp - 2 * length)
        }
        /// Samples from `boundary` (a stream timestamp) to the cut; positive when the cut is after it.
        func samples(after boundary: Int64) -> Double {
            guard let time = MediaTime(pts: boundary, timeBase: timeBase) else { return .infinity }
            return (target - time).seconds * Double(sampleRate)
        }
        while try source.readPacket(into: packet, context: "reading") {
            guard let pts = packet.presentationTimestamp else { continue }
            let start = samples(after: pts), end = samples(after: pts + packetDuration)
            if abs(start) < 0.5 || abs(end) < 0.5 { return nil }
            // The cut inside this packet, or (a gap in the packets) before it.
            if end < 0 { return Int(abs(start).rounded()) }
        }
        return nil
    }
}
