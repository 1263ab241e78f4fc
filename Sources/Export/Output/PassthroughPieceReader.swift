import SpliceFFmpeg
import Composition
import Foundation
internal import CMedia

/// Reads the packets of one ``PassthroughPlan/Piece`` from its source file, in decoding order, deciding which to
/// copy. Timestamps are left in the source stream's time base; ``PassthroughWriter`` restamps them.
///
/// Video: seeks to the key frame at the piece's start (refusing a start that is not on one, naming the key frames
/// around it), then yields every packet whose presentation time lies in the piece's source range. At the end it
/// checks that the kept packets are a prefix of the decoding order — no kept picture is decoded after a cut one
/// (which it could reference, with B-frames) — and refuses the cut otherwise, naming the nearest ends that work
/// (exact within the group of pictures and the packets read past the cut).
///
/// Audio: every packet is a key frame; yields packets from the one whose boundary is nearest the start onward (the
/// start moved by the writer's `startShift`, see ``init(piece:trackID:startShift:cancellation:)``), until the writer
/// stops asking (it decides the end from the output position) or the file ends. Before them it yields one *pre-roll*
/// packet (``isPreroll``): the packet before the first kept one — at the start of a file, the encoder's priming
/// packet the demuxer marks as discarded (AAC: 1024 samples, the `media_time` of the source's edit list). A decoder
/// needs it to rebuild the first kept packet's samples (MDCT codecs overlap neighbouring packets); the writer places
/// it just before the piece, so the output keeps the priming as an edit list.
final class PassthroughPieceReader {
    let piece: PassthroughPlan.Piece
    let trackID: Int32
    let timeBase: AVRational
    let packet: Packet
    /// The stream read.
    let source: SourceStream
    private let isVideo: Bool
    /// The piece's source range as stream timestamps: [startTimestamp, endTimestamp).
    private let startTimestamp: Int64
    private let endTimestamp: Int64
    /// Audio: the stream timestamp whose nearest packet boundary starts the kept packets (``startTimestamp`` moved by
    /// the writer's start shift).
    private let audioStartTarget: Int64
    /// Audio packet duration when the container leaves it unset, in the stream time base.
    private let nominalAudioDuration: Int64
    private enum Phase { case seeking, copying, done }
    private var phase = Phase.seeking
    /// Video: presentation timestamp of the last key frame seen before the start.
    private var keyFrameBefore: Int64?
    /// Audio: the packet read before the waiting one while seeking (the pre-roll candidate), or the first kept
    /// packet held back while the pre-roll is handed out.
    private let heldPacket: Packet
    private var hasHeldPacket = false
    private var holdsFirstKept = false
    /// Audio: true when the waiting packet is the pre-roll before the piece's first kept packet.
    private(set) var isPreroll = false
    /// Audio: presentation timestamp of the first kept packet minus the piece's start (stream time base): where,
    /// relative to the piece's start, the source's first kept sample lies (negative when the packet begins before).
    private(set) var firstKeptOffset: Int64 = 0
    /// Video: presentation timestamps of the copied packets since the last key frame, in decoding order (one group
    /// of pictures: bounded by the source's key-frame interval), to find the ends that cut cleanly.
    private var groupTimestamps: [Int64] = []

    /// Decoding-order packets read after the first cut one, at most, to prove the cut clean (H.264 and HEVC
    /// reorder at most 16 pictures).
    private static let reorderWindow = 32

    /// Opens the piece's source and positions it at the piece's start.
    /// - Parameter startShift: audio: where the first kept packet should begin relative to the piece's start (seconds,
    ///   negative for before; under half a packet): the packet whose start is nearest the piece's start plus this is
    ///   the first kept. ``PassthroughWriter`` passes how far the output packet boundary the piece starts on lies from
    ///   the piece's composition start, so the piece's samples land within half a packet of their time. Ignored for
    ///   video.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    init(piece: PassthroughPlan.Piece, trackID: Int32, startShift: MediaTime = .zero, cancellation: CancellationFlag) throws {
        self.piece = piece
        self.trackID = trackID
        source = try SourceStream(url: piece.source.assetURL, index: piece.source.streamIndex, cancellation: cancellation)
        timeBase = source.timeBase
        isVideo = piece.source.mediaType == .video
        let offset = piece.source.startTimeOffset
        startTimestamp = (piece.sourceRange.start + offset).timestamp(in: timeBase) ?? 0
        endTimestamp = (piece.sourceRange.end + offset).timestamp(in: timeBase) ?? Int64.max
        audioStartTarget = isVideo
            ? startTimestamp : (piece.sourceRange.start + offset + startShift).timestamp(in: timeBase) ?? startTimestamp
        let frameSize = Int64(source.audioFrameSize.samples)
        let sampleRate = Int64(source.audioFrameSize.sampleRate)
        nominalAudioDuration = frameSize > 0 && sampleRate > 0
            ? av_rescale_q(frameSize, AVRational(num: 1, den: Int32(sampleRate)), timeBase) : 0
        packet = try Packet()
        heldPacket = try Packet()
        if piece.sourceRange.start > .zero {
            // Audio: two packets early, so the packet before the first kept one is read (the pre-roll).
            let audioSeek = min(startTimestamp, audioStartTarget) - 2 * nominalAudioDuration
            try? source.seek(toTimestamp: isVideo ? startTimestamp : audioSeek)
        }
    }

    /// The source time (seconds from the track's time 0) of a stream timestamp, for messages.
    private func sourceTime(_ timestamp: Int64) -> String {
        MediaTime(pts: timestamp, timeBase: timeBase).map { PassthroughPlan.display($0 - piece.source.startTimeOffset) }
            ?? "an unknown time"
    }

    /// The waiting packet's duration in the stream time base (audio: the codec's frame size when unset).
    var packetDuration: Int64 {
        packet.duration > 0 ? packet.duration : (isVideo ? 0 : nominalAudioDuration)
    }

    /// Reads the next packet of the stream (skipping other streams, packets without a presentation time, and
    /// packets the demuxer marks as not to be shown, such as AAC priming); false at the end of the file.
    private func readOwnPacket(keepingDiscarded: Bool = false) throws -> Bool {
        while true {
            guard try source.readPacket(into: packet, context: "reading") else { return false }
            if packet.presentationTimestamp != nil, keepingDiscarded || !packet.isDiscarded { return true }
        }
    }

    /// Reads the next packet to copy into ``packet``; false when the piece has no more.
    /// - Throws: ``ExportError/passthroughNotPossible(_:)`` for a video start off a key frame or an end inside
    ///   reordered pictures; ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func next() throws -> Bool {
        if holdsFirstKept {
            // The pre-roll was handed out; now the first kept packet.
            packet.swapContents(with: heldPacket)
            holdsFirstKept = false
            isPreroll = false
            return true
        }
        while phase != .done {
            guard try readOwnPacket(keepingDiscarded: !isVideo && phase == .seeking),
                  let pts = packet.presentationTimestamp else {
                phase = .done
                return false
            }
            if !isVideo {
                if phase == .seeking {
                    // Start at the packet boundary nearest the (shifted) start: skip packets whose midpoint is at or
                    // before it (and the priming packets the demuxer marks discarded), keeping the last skipped as
                    // pre-roll.
                    if packet.isDiscarded || 2 * pts + packetDuration <= 2 * audioStartTarget {
                        packet.swapContents(with: heldPacket)
                        hasHeldPacket = true
                        continue
                    }
                    phase = .copying
                    firstKeptOffset = pts - startTimestamp
                    if hasHeldPacket {
                        packet.swapContents(with: heldPacket)
                        holdsFirstKept = true
                        isPreroll = true
                    }
                }
                return true
            }
            if phase == .seeking {
                if pts < startTimestamp {
                    if packet.isKeyFrame { keyFrameBefore = pts }
                    continue
                }
                guard packet.isKeyFrame, pts == startTimestamp else { throw try notOnKeyFrame(firstAfter: pts) }
                phase = .copying
                groupTimestamps = [pts]
                return true
            }
            if pts >= endTimestamp {
                try checkCleanEnd(firstCut: pts)
                phase = .done
                return false
            }
            // Leading pictures of an open group (shown before the start key frame) belong to the previous group.
            if pts < startTimestamp { continue }
            if packet.isKeyFrame { groupTimestamps.removeAll(keepingCapacity: true) }
            groupTimestamps.append(pts)
            return true
        }
        return false
    }

    /// Checks the piece's cuts without copying, as the planner does before any file is written: reads from the
    /// start to its key frame (a start off a key frame is refused), then seeks to the key frame at or before the end
    /// and reads past the end through the reordering window (an end inside reordered pictures is refused). Reads
    /// one or two groups of pictures, not the piece. Audio cuts are always possible: nothing to check.
    /// - Throws: the refusals of ``next()``; ``ExportError/sourceUnreadable(_:reason:)``; `CancellationError`.
    func checkCuts() throws {
        guard isVideo else { return }
        guard try next() else { return }
        if let key = source.indexedKeyFrameTimestamp(atOrBefore: endTimestamp), key > startTimestamp {
            try? source.seek(toTimestamp: key)
            groupTimestamps = []
        }
        while try next() {}
    }

    /// The refusal for a video start that is not a key frame, naming the key frames before and after it.
    private func notOnKeyFrame(firstAfter pts: Int64) throws -> ExportError {
        var after: Int64? = packet.isKeyFrame ? pts : nil
        while after == nil, try readOwnPacket() {
            if packet.isKeyFrame, let candidate = packet.presentationTimestamp, candidate > startTimestamp { after = candidate }
        }
        let nearest = [keyFrameBefore.map(sourceTime), after.map(sourceTime)]
        let described = nearest.compactMap { $0 }.joined(separator: " / ")
        return ExportError.passthroughNotPossible(
            "\(piece.name(track: trackID)) starts at \(PassthroughPlan.display(piece.sourceRange.start)) of its source, "
                + "not on a key frame (nearest key frames \(described.isEmpty ? "unknown" : described)); "
                + "start the segment on a key frame or re-encode")
    }

    /// Reads a little past the first cut packet (pts ≥ end) and refuses the end when a kept packet (pts in the
    /// range) comes after it in decoding order, naming the nearest ends before and after that cut cleanly.
    private func checkCleanEnd(firstCut: Int64) throws {
        var order = groupTimestamps + [firstCut]
        var conflict: Int64?
        var read = 0
        // The end of the last picture read, which is the source's end when the file ends in the window.
        var lastEnd = firstCut + packet.duration
        var reachedEndOfFile = true
        while read < Self.reorderWindow {
            guard try readOwnPacket(), let pts = packet.presentationTimestamp else { break }
            read += 1
            order.append(pts)
            if packet.isKeyFrame { reachedEndOfFile = false; break }
            lastEnd = max(lastEnd, pts + packet.duration)
            if pts >= startTimestamp && pts < endTimestamp { conflict = conflict ?? pts }
            if read == Self.reorderWindow { reachedEndOfFile = false }
        }
        guard let conflict else { return }
        var ends = Self.cleanEnds(decodingOrder: order).filter { $0 > startTimestamp }
        if reachedEndOfFile { ends.append(lastEnd) }
        let before = ends.last { $0 < endTimestamp }, after = ends.first { $0 > endTimestamp }
        let suggestions = [before, after].compactMap { $0.map(sourceTime) }
        throw ExportError.passthroughNotPossible(
            "\(piece.name(track: trackID)) ends at \(PassthroughPlan.display(piece.sourceRange.end)) of its source, "
                + "inside pictures reordered for B-frames: the picture at \(sourceTime(conflict)) is decoded after the cut "
                + "picture at \(sourceTime(firstCut)) and may depend on it; "
                + (suggestions.isEmpty ? "" : "end the segment at \(suggestions.joined(separator: " or ")) instead, ")
                + "or re-encode")
    }

    /// The ends (presentation timestamps, ascending) at which cutting a run of packets in `decodingOrder` keeps a
    /// prefix of it: after packet k, the end is the earliest presentation time still to come, valid when every
    /// picture up to k is shown before it.
    static func cleanEnds(decodingOrder: [Int64]) -> [Int64] {
        guard decodingOrder.count > 1 else { return [] }
        var suffixMinimum = decodingOrder
        for index in stride(from: decodingOrder.count - 2, through: 0, by: -1) {
            suffixMinimum[index] = min(decodingOrder[index], suffixMinimum[index + 1])
        }
        var ends: [Int64] = []
        var prefixMaximum = Int64.min
        for index in 0..<(decodingOrder.count - 1) {
            prefixMaximum = max(prefixMaximum, decodingOrder[index])
            if prefixMaximum < suffixMinimum[index + 1] { ends.append(suffixMinimum[index + 1]) }
        }
        return ends
    }
}
