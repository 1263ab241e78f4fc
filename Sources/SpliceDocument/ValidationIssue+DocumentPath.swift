import AudioMix
import Composition
import VideoComposition

extension ValidationIssue {
    /// Where this video-composition issue sits in a document: `videoComposition.instructions[2].timeRange`,
    /// `videoComposition.instructions[0].layerInstructions[1].opacity`, `videoComposition.overlays[0].content.image`, …
    /// found from the issue's kind, instruction index, overlay index and track ID (and, for keyframe issues, the
    /// parameter its message names).
    public func videoCompositionPath(in videoComposition: MutableVideoComposition) -> DocumentPath {
        let base = DocumentPath("videoComposition")
        if let index = instructionIndex {
            let instruction = base.appending("instructions").appending(index)
            switch kind {
            case .invalidInstructionTimeRange, .instructionsStartLate, .gapBetweenInstructions, .overlappingInstructions,
                 .instructionsEndEarly:
                return instruction.appending("timeRange")
            default:
                break
            }
            guard let trackID, videoComposition.instructions.indices.contains(index) else {
                return kind == .invalidColor ? instruction.appending("backgroundColor") : instruction
            }
            let matches = videoComposition.instructions[index].layerInstructions.indices.filter {
                videoComposition.instructions[index].layerInstructions[$0].trackID == trackID
            }
            guard let first = matches.first else { return instruction }
            let layerIndex = kind == .duplicateTrack && matches.count > 1 ? matches[1] : first
            let layer = instruction.appending("layerInstructions").appending(layerIndex)
            switch kind {
            case .unknownTrack, .wrongMediaType, .duplicateTrack: return layer.appending("trackID")
            case .nonFiniteTransform: return layer.appending("transform")
            case .opacityOutOfRange: return layer.appending("opacity")
            case .invalidCropRectangle: return layer.appending("cropRectangle")
            default:
                if let effect = effectIndex(in: message) {
                    let path = layer.appending("effects").appending(effect)
                    let effects = videoComposition.instructions[index].layerInstructions[layerIndex].effects
                    guard effects.indices.contains(effect) else { return path }
                    switch effects[effect] {
                    case .lookupTable: return path.appending("file")
                    case .adjustment(_, let keyframes):
                        if keyframes.entries.count == 1, case .value(_, .zero) = keyframes.entries[0] {
                            return path.appending("value")
                        }
                        return path.appending("keyframes")
                    }
                }
                if message.contains(": transform ") { return layer.appending("transform") }
                if message.contains(": opacity ") { return layer.appending("opacity") }
                if message.contains(": crop rectangle ") { return layer.appending("cropRectangle") }
                return layer
            }
        }
        if let index = overlayIndex {
            let overlay = base.appending("overlays").appending(index)
            switch kind {
            case .overlayImageUnreadable: return overlay.appending(DocumentPath("content.image"))
            case .overlayFontUnreadable: return overlay.appending(DocumentPath("content.text.fontFile"))
            case .invalidTextAttributes:
                return overlay.appending(DocumentPath(parsing: message.contains("font size") ? "content.text.fontSize" : "content.text.padding"))
            case .invalidColor:
                return overlay.appending(DocumentPath(parsing: message.contains("background") ? "content.text.backgroundColor" : "content.text.color"))
            case .invalidOverlayFrame: return overlay.appending("frame")
            case .invalidOverlayTimeRange: return overlay.appending("timeRange")
            default:
                if message.contains(": opacity is ") { return overlay.appending("opacity") }
                if message.contains(": position ") { return overlay.appending("position") }
                if message.contains(": scale ") { return overlay.appending("scale") }
                if message.contains(": rotation ") { return overlay.appending("rotation") }
                if message.contains(": opacity ") { return overlay.appending("opacityAnimation") }
                return overlay
            }
        }
        switch kind {
        case .invalidRenderSize, .oddRenderSize: return base.appending("renderSize")
        case .invalidFrameDuration: return base.appending("frameDuration")
        case .invalidColor: return base.appending("backgroundColor")
        case .noInstructions: return base.appending("instructions")
        default: return base
        }
    }

    /// Where this audio-mix issue sits in a document: `audioMix.inputParameters[1].volume`, found from the issue's
    /// track ID (the second parameters of a track, for a duplicate).
    public func audioMixPath(in audioMix: MutableAudioMix) -> DocumentPath {
        let base = DocumentPath("audioMix")
        guard let trackID else { return base }
        let matches = audioMix.inputParameters.indices.filter { audioMix.inputParameters[$0].trackID == trackID }
        guard let first = matches.first else { return base }
        let index = kind == .duplicateTrack && matches.count > 1 ? matches[1] : first
        let parameters = base.appending("inputParameters").appending(index)
        switch kind {
        case .unknownTrack, .wrongMediaType, .duplicateTrack: return parameters.appending("trackID")
        default: return parameters.appending("volume")
        }
    }

    /// The effect index a layer issue's message names (`…: effect 2 (blur) …`), if any.
    private func effectIndex(in message: String) -> Int? {
        guard let range = message.range(of: ": effect ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }
}
