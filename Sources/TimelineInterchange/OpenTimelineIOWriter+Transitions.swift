import AudioMix
import Composition
import SpliceDocument
import VideoComposition

/// Transitions written as OpenTimelineIO `Transition` objects: two composition tracks that a transition joins — the
/// A/B lanes the reader makes of one Track — are written back as that one Track, each overlap of their clips a
/// Transition between the two clips, cut at the overlap's middle frame.
extension OpenTimelineIOWriter {
    /// A transition of the composition: its two tracks, its range and its picture.
    struct LaneTransition {
        var from: Int32
        var to: Int32
        var range: TimeRange
        /// The picture (`crossDissolve` for sound).
        var style: VideoTransitionStyle
    }

    /// One item of a Track made of two lanes.
    enum LaneItem {
        /// A clip: the segment (trimmed to the cut) and the document segment it was compiled from.
        case clip(CompositionTrackSegment, DocumentSegment?)
        /// An empty stretch of this length.
        case gap(MediaTime)
        /// A transition cut `inOffset` after its start (`outOffset` before its end).
        case transition(LaneTransition, inOffset: MediaTime, outOffset: MediaTime)
    }

    /// The video composition's transitions: instructions drawing a catalogue transition with linear easing, and
    /// cross-dissolves (a layer whose opacity falls linearly from 1 to 0 over the instruction, above the incoming
    /// one). Others are not found here; they stay in `metadata.splice.videoComposition` alone.
    static func transitions(in video: MutableVideoComposition?) -> [LaneTransition] {
        guard let video else { return [] }
        return video.instructions.compactMap { instruction in
            let range = instruction.timeRange
            if let transition = instruction.transition {
                guard transition.easing == .linear else { return nil }
                return LaneTransition(from: transition.fromTrackID, to: transition.toTrackID, range: range, style: transition.style)
            }
            let middle = range.start + range.duration.multiplied(byRatio: 1, over: 2)
            let layers = instruction.layerInstructions
            for (outgoing, incoming) in zip(layers, layers.dropFirst())
            where outgoing.opacity(at: range.start) == 1 && outgoing.opacity(at: range.end) == 0
                && abs(outgoing.opacity(at: middle) - 0.5) < 1e-9 && incoming.opacity(at: middle) == 1 {
                return LaneTransition(from: outgoing.trackID, to: incoming.trackID, range: range, style: .crossDissolve)
            }
            return nil
        }
    }

    /// The audio mix's crossfades, as sound transitions.
    static func transitions(in mix: MutableAudioMix?) -> [LaneTransition] {
        (mix?.crossfades ?? []).map {
            LaneTransition(from: $0.fromTrackID, to: $0.toTrackID, range: $0.timeRange, style: .crossDissolve)
        }
    }

    /// The items of one Track holding `lane0` and `lane1`, or nil when they are not two lanes of one track: the
    /// clips of both in time order, the first on `lane0`, overlapping only where one of `transitions` joins them
    /// (exactly over the overlap, from the earlier clip's track to the later one's, both at normal speed), and
    /// changing lanes only there.
    func laneItems(lane0: CompositionTrack, lane1: CompositionTrack, transitions: [LaneTransition]) -> [LaneItem]? {
        let pair: Set<Int32> = [lane0.trackID, lane1.trackID]
        let joining = transitions.filter { Set([$0.from, $0.to]) == pair }.sorted { $0.range.start < $1.range.start }
        guard !joining.isEmpty, lane0.preferredVolume == lane1.preferredVolume, lane0.isEnabled == lane1.isEnabled else { return nil }
        let clips = (filledSegments(of: lane0) + filledSegments(of: lane1))
            .sorted { $0.segment.timeMapping.target.start < $1.segment.timeMapping.target.start }
        func isPlain(_ segment: CompositionTrackSegment) -> Bool {
            segment.timeEffect == nil && segment.timeMapping.source.duration == segment.timeMapping.target.duration
        }
        var items: [LaneItem] = []
        var used = 0
        var previous: (segment: CompositionTrackSegment, written: DocumentSegment?, trackID: Int32, head: MediaTime)?
        for clip in clips {
            let target = clip.segment.timeMapping.target
            guard let before = previous else {
                guard clip.trackID == lane0.trackID else { return nil }
                if target.start > .zero { items.append(.gap(target.start)) }
                previous = (clip.segment, clip.written, clip.trackID, .zero)
                continue
            }
            let end = before.segment.timeMapping.target.end
            if target.start >= end {
                guard clip.trackID == before.trackID else { return nil }
                items.append(.clip(Self.trimmed(before.segment, head: before.head, tail: .zero), before.written))
                if target.start > end { items.append(.gap(target.start - end)) }
                previous = (clip.segment, clip.written, clip.trackID, .zero)
                continue
            }
            guard used < joining.count, joining[used].range == TimeRange(start: target.start, end: end),
                  joining[used].from == before.trackID, joining[used].to == clip.trackID, target.end > end,
                  isPlain(before.segment), isPlain(clip.segment) else { return nil }
            let transition = joining[used]
            let duration = transition.range.duration
            let inOffset = rate.wholeFrames(in: duration).map { duration.multiplied(byRatio: $0 / 2, over: $0) } ?? .zero
            let outOffset = duration - inOffset
            // Both clips keep some of their own picture outside the transition.
            guard end - outOffset > before.segment.timeMapping.target.start + before.head else { return nil }
            items.append(.clip(Self.trimmed(before.segment, head: before.head, tail: outOffset), before.written))
            items.append(.transition(transition, inOffset: inOffset, outOffset: outOffset))
            previous = (clip.segment, clip.written, clip.trackID, inOffset)
            used += 1
        }
        guard let last = previous, used == joining.count else { return nil }
        items.append(.clip(Self.trimmed(last.segment, head: last.head, tail: .zero), last.written))
        return items
    }

    /// The non-empty segments of `track`, each with the document segment it was compiled from (when known).
    func filledSegments(of track: CompositionTrack) -> [(segment: CompositionTrackSegment, written: DocumentSegment?, trackID: Int32)] {
        let filled = track.segments.filter { !$0.isEmpty }
        let documentTrack = documentTracks.first { $0.trackID == track.trackID }
        // The document's segments are the composition's non-empty ones, in order (when the counts agree).
        let written = documentTrack.flatMap { $0.segments.count == filled.count ? $0.segments : nil }
        return filled.enumerated().map { ($1, written?[$0], track.trackID) }
    }

    /// `segment` (at normal speed) without `head` of its start and `tail` of its end.
    static func trimmed(_ segment: CompositionTrackSegment, head: MediaTime, tail: MediaTime) -> CompositionTrackSegment {
        guard head != .zero || tail != .zero, let source = segment.sourceTrack else { return segment }
        let read = segment.timeMapping.source
        let duration = read.duration - head - tail
        return CompositionTrackSegment(sourceTrack: source, timeMapping: TimeMapping(
            source: TimeRange(start: read.start + head, duration: duration),
            target: TimeRange(start: segment.timeMapping.target.start + head, duration: duration)))
    }
}
