import AudioMix
import Composition
import SpliceDocument
import VideoComposition

extension OpenTimelineIO {
    /// A transition of a timeline: its two composition tracks (the outgoing clip's and the incoming clip's lane),
    /// the composition time it covers (`in_offset` before the cut to `out_offset` after it) and its picture.
    public struct Transition: Sendable, Hashable {
        /// `video` (a video composition instruction) or `audio` (a crossfade of the audio mix).
        public var mediaType: MediaType
        /// The track of the outgoing clip.
        public var fromTrackID: Int32
        /// The track of the incoming clip.
        public var toTrackID: Int32
        /// Composition time of the transition.
        public var timeRange: TimeRange
        /// The picture: `SMPTE_Dissolve` is ``VideoComposition/VideoTransitionStyle/crossDissolve``.
        public var style: VideoTransitionStyle
        /// Where the Transition is in the `.otio` file.
        public var path: DocumentPath
    }

    /// The video composition drawing the timeline's video transitions: `base` (or the composition's default,
    /// `MutableVideoComposition(propertiesOf:)`) with each transition's range cut out of its instructions and drawn
    /// by ``VideoComposition/VideoCompositionInstruction/transition(_:from:to:timeRange:outgoingTransform:incomingTransform:easing:)``,
    /// the two layers keeping the placements the default gave them. A cross-dissolve keeps the other tracks' layers
    /// above and below it; another style draws only its two tracks, so one over other visible tracks is a problem.
    static func videoComposition(
        drawing transitions: [Transition], over composition: MutableComposition, base: MutableVideoComposition?
    ) -> (MutableVideoComposition, [DocumentProblem]) {
        var video = base ?? MutableVideoComposition(propertiesOf: composition)
        var problems: [DocumentProblem] = []
        for transition in transitions where transition.mediaType == .video {
            let range = transition.timeRange
            let overlapping = video.instructions.filter { $0.timeRange.end > range.start && $0.timeRange.start < range.end }
            func layer(_ trackID: Int32) -> VideoCompositionLayerInstruction? {
                overlapping.lazy.compactMap { $0.layerInstructions.first { $0.trackID == trackID } }.first
            }
            let outgoing = layer(transition.fromTrackID)?.transform(at: range.start) ?? .identity
            let incoming = layer(transition.toTrackID)?.transform(at: range.start) ?? .identity
            var instruction = VideoCompositionInstruction.transition(
                transition.style, from: transition.fromTrackID, to: transition.toTrackID, timeRange: range,
                outgoingTransform: outgoing, incomingTransform: incoming)
            let joined: Set<Int32> = [transition.fromTrackID, transition.toTrackID]
            let others = overlapping.first?.layerInstructions.filter { !joined.contains($0.trackID) } ?? []
            if !others.isEmpty {
                if transition.style == .crossDissolve {
                    // Tracks listed before the pair are above it (the first layer is the top-most).
                    let order = overlapping.first?.layerInstructions.map(\.trackID) ?? []
                    let pairIndex = order.firstIndex { joined.contains($0) } ?? order.count
                    let above = others.filter { (order.firstIndex(of: $0.trackID) ?? 0) < pairIndex }
                    let below = others.filter { (order.firstIndex(of: $0.trackID) ?? 0) > pairIndex }
                    instruction.layerInstructions = above + instruction.layerInstructions + below
                } else {
                    problems.append(DocumentProblem(
                        path: transition.path,
                        message: "a \(transition.style) transition draws only its two clips, but other video tracks are visible over its range"))
                }
            }
            var instructions: [VideoCompositionInstruction] = []
            for existing in video.instructions {
                let span = existing.timeRange
                guard span.end > range.start, span.start < range.end else {
                    instructions.append(existing)
                    continue
                }
                if span.start < range.start {
                    var before = existing
                    before.timeRange = TimeRange(start: span.start, end: range.start)
                    instructions.append(before)
                }
                if span.end > range.end {
                    var after = existing
                    after.timeRange = TimeRange(start: range.end, end: span.end)
                    instructions.append(after)
                }
            }
            instructions.append(instruction)
            instructions.sort { $0.timeRange.start < $1.timeRange.start }
            video.instructions = instructions
        }
        return (video, problems)
    }

    /// The audio mix with the timeline's sound transitions as crossfades (equal power) added to `base`.
    static func audioMix(crossfading transitions: [Transition], base: MutableAudioMix?) -> MutableAudioMix? {
        let sound = transitions.filter { $0.mediaType == .audio }
        guard !sound.isEmpty else { return base }
        var mix = base ?? MutableAudioMix()
        for transition in sound {
            mix.crossfades.append(AudioCrossfade(from: transition.fromTrackID, to: transition.toTrackID, timeRange: transition.timeRange))
        }
        return mix
    }
}
