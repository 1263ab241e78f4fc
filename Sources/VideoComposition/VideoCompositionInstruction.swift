import Composition

/// What the video composition draws during one time range, as AVFoundation's `AVMutableVideoCompositionInstruction`:
/// a background and a stack of layers, one per composition track.
///
/// A track with no layer instruction here is not drawn during ``timeRange``.
public struct VideoCompositionInstruction: Sendable, Hashable {
    /// The composition time range `[start, end)` the instruction covers. Instructions tile the composition (see
    /// ``MutableVideoComposition/validate(for:)``).
    public var timeRange: TimeRange
    /// The colour under all layers; nil uses the video composition's ``MutableVideoComposition/backgroundColor``
    /// (opaque black by default, as AVFoundation).
    public var backgroundColor: Color?
    /// The layers, index 0 the top-most (drawn last), as AVFoundation's `layerInstructions`.
    public var layerInstructions: [VideoCompositionLayerInstruction]
    /// When false, the overlay layers are not drawn during this instruction, as AVFoundation's
    /// `enablePostProcessing` turns off the Core Animation tool's layers. True by default.
    public var enablePostProcessing: Bool
    /// A transition drawn over the whole ``timeRange`` between two of the instruction's layers (nil: the layers are
    /// composited as usual). See ``VideoTransition``.
    public var transition: VideoTransition?

    /// An instruction.
    ///
    /// - Parameters:
    ///   - timeRange: composition time covered.
    ///   - layerInstructions: the layers, top-most first.
    ///   - backgroundColor: nil for the video composition's background colour.
    ///   - enablePostProcessing: whether overlays are drawn during the instruction.
    ///   - transition: a transition between two of the layers over the whole range, or nil.
    public init(
        timeRange: TimeRange, layerInstructions: [VideoCompositionLayerInstruction] = [], backgroundColor: Color? = nil,
        enablePostProcessing: Bool = true, transition: VideoTransition? = nil
    ) {
        self.timeRange = timeRange
        self.layerInstructions = layerInstructions
        self.backgroundColor = backgroundColor
        self.enablePostProcessing = enablePostProcessing
        self.transition = transition
    }

    /// The layer instruction for `trackID` (the first, if several), or nil when the track is not drawn.
    public func layerInstruction(forTrackID trackID: Int32) -> VideoCompositionLayerInstruction? {
        layerInstructions.first { $0.trackID == trackID }
    }

    /// The tracks the instruction draws, top-most first, as AVFoundation's `requiredSourceTrackIDs`.
    public var requiredSourceTrackIDs: [Int32] { layerInstructions.map(\.trackID) }
}

extension VideoCompositionInstruction: Codable {
    private enum CodingKeys: String, CodingKey {
        case timeRange, backgroundColor, layerInstructions, enablePostProcessing, transition
    }

    /// Decodes an instruction; only `timeRange` is required (no layers, the composition's background, overlays on,
    /// no transition).
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            timeRange: try container.decode(TimeRange.self, forKey: .timeRange),
            layerInstructions:
                try container.decodeIfPresent([VideoCompositionLayerInstruction].self, forKey: .layerInstructions) ?? [],
            backgroundColor: try container.decodeIfPresent(Color.self, forKey: .backgroundColor),
            enablePostProcessing: try container.decodeIfPresent(Bool.self, forKey: .enablePostProcessing) ?? true,
            transition: try container.decodeIfPresent(VideoTransition.self, forKey: .transition))
    }

    /// Encodes every field (`backgroundColor` and `transition` only when set).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timeRange, forKey: .timeRange)
        try container.encodeIfPresent(backgroundColor, forKey: .backgroundColor)
        try container.encode(layerInstructions, forKey: .layerInstructions)
        try container.encode(enablePostProcessing, forKey: .enablePostProcessing)
        try container.encodeIfPresent(transition, forKey: .transition)
    }
}
