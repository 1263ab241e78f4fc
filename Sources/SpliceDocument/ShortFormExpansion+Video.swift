import AudioMix
import Composition
import Foundation
import VideoComposition

extension ShortFormExpansion {
    mutating func instructions(_ placed: [PlacedClip], trackIDs: [Int32], renderSize: Size) -> [VideoCompositionInstruction] {
        var instructions: [VideoCompositionInstruction] = []
        var placements: [AffineTransform2D] = []
        let canvasIsUsable = renderSize.width > 0 && renderSize.height > 0
        let clipEffects = placed.map { effects(of: $0) }
        for clip in placed {
            guard canvasIsUsable else {
                placements.append(.identity)
                continue
            }
            guard let format = clip.video.video, let placement = AffineTransform2D.placing(
                naturalSize: format.naturalSize, preferredTransform: format.preferredTransform,
                pixelAspectRatio: format.pixelAspectRatio, in: renderSize, mode: clip.clip.fit ?? .fit)
            else {
                problems.add(DocumentPath("clips").appending(clip.index).appending("source"),
                             "'\(clip.clip.source)' has an empty picture (no width or height): it cannot be placed")
                placements.append(.identity)
                continue
            }
            placements.append(placement)
        }
        for (offset, clip) in placed.enumerated() {
            let solo = TimeRange(start: clip.start + clip.transitionIn, end: clip.end - clip.transitionOut)
            if solo.duration > .zero {
                var layer = VideoCompositionLayerInstruction(trackID: trackIDs[clip.lane])
                layer.setTransform(placements[offset], at: solo.start)
                if let fadeIn = clip.clip.fadeIn {
                    layer.setOpacityRamp(fromStartOpacity: 0, toEndOpacity: 1, timeRange: TimeRange(start: clip.start, duration: fadeIn))
                }
                if let fadeOut = clip.clip.fadeOut {
                    layer.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: TimeRange(start: clip.end - fadeOut, end: clip.end))
                }
                layer.effects = clipEffects[offset]
                instructions.append(VideoCompositionInstruction(timeRange: solo, layerInstructions: [layer]))
            }
            if clip.transitionOut > .zero, offset + 1 < placed.count {
                let next = placed[offset + 1]
                var transition = VideoCompositionInstruction.transition(
                    clip.clip.transition?.type ?? .crossDissolve, from: trackIDs[clip.lane], to: trackIDs[next.lane],
                    timeRange: TimeRange(start: next.start, end: clip.end),
                    outgoingTransform: placements[offset], incomingTransform: placements[offset + 1],
                    easing: clip.clip.transition?.easing ?? .linear)
                for index in transition.layerInstructions.indices {
                    let trackID = transition.layerInstructions[index].trackID
                    transition.layerInstructions[index].effects = clipEffects[trackID == trackIDs[clip.lane] ? offset : offset + 1]
                }
                instructions.append(transition)
            }
        }
        return instructions
    }
}
