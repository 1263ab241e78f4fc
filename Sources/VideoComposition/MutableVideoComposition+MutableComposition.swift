import Composition

extension MutableVideoComposition {
    /// A valid default video composition for `composition`, as AVFoundation's
    /// `AVMutableVideoComposition(propertiesOf:)`, with every source shown upright and aspect-fitted — also when
    /// one track cuts between sources of different sizes or orientations (a portrait phone clip after a landscape
    /// one is letterboxed, never stretched).
    ///
    /// Rules are those of ``init(propertiesOf:)-(CompositionSummary)``, with two refinements that need the
    /// segments' sources: the render size (when the composition's `naturalSize` is zero) holds the display picture
    /// of every source, not only each track's first; and each layer's transform is set again at the start of every
    /// segment whose source differs, to that source's own preferred transform followed by the aspect fit.
    public init(propertiesOf composition: MutableComposition) {
        var summary = CompositionSummary(composition)
        let videoTracks = composition.tracks(withMediaType: .video).filter(\.isEnabled)
        if composition.naturalSize.width <= 0 || composition.naturalSize.height <= 0 {
            let displays = videoTracks.flatMap { $0.segments.compactMap { $0.sourceTrack?.video?.displaySize } }
            if let width = displays.map(\.width).max(), let height = displays.map(\.height).max() {
                summary.naturalSize = Size(width: width, height: height)
            }
        }
        self.init(propertiesOf: summary)
        let canvas = renderSize
        for (index, instruction) in instructions.enumerated() {
            for (layerIndex, layer) in instruction.layerInstructions.enumerated() {
                guard let track = composition.track(withTrackID: layer.trackID) else { continue }
                var updated = layer
                for segment in track.segments {
                    guard let video = segment.sourceTrack?.video else { continue }
                    let start = segment.timeMapping.target.start
                    let inInstruction = instruction.timeRange.contains(start)
                        || (segment.timeMapping.target.contains(instruction.timeRange.start))
                    guard inInstruction else { continue }
                    let placement = AffineTransform2D.placing(
                        naturalSize: video.naturalSize, preferredTransform: video.preferredTransform,
                        pixelAspectRatio: video.pixelAspectRatio, in: canvas, mode: .fit) ?? video.preferredTransform
                    updated.setTransform(placement, at: Swift.max(start, instruction.timeRange.start))
                }
                instructions[index].layerInstructions[layerIndex] = updated
            }
        }
    }

    /// Every problem of this video composition against `composition` (see
    /// ``validate(for:)-(CompositionSummary)``).
    public func validate(for composition: MutableComposition) -> [ValidationIssue] {
        validate(for: CompositionSummary(composition))
    }
}
