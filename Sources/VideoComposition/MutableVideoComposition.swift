import Composition

/// How a composition's video tracks are combined into frames, as AVFoundation's `AVMutableVideoComposition`: the
/// canvas, the frame rate, the instructions that say which tracks are drawn how during each time range, and overlay
/// layers drawn above the video.
///
/// Build one by hand, from a composition's facts with ``init(propertiesOf:)``, or from JSON. Check it against the
/// composition with ``validate(for:)`` (every problem) or ``validated(for:)`` (throws) before rendering.
public struct MutableVideoComposition: Sendable, Hashable {
    /// The canvas in pixels; even width and height for 4:2:0 output.
    public var renderSize: Size
    /// The output frame interval, e.g. 1/30 s: frame `k` shows composition time `k × frameDuration`.
    public var frameDuration: MediaTime
    /// The colour under every layer where an instruction sets none; opaque black by default (AVFoundation's).
    public var backgroundColor: Color
    /// Instructions in time order, tiling `[0, composition duration)` without gap or overlap.
    public var instructions: [VideoCompositionInstruction]
    /// Image and text layers drawn above the video, index 0 the top-most.
    public var overlays: [OverlayLayer]
    /// The primaries the layers are composited in and the output is tagged with (AVFoundation's
    /// `colorPrimaries`). With ``colorTransferFunction`` and ``colorYCbCrMatrix`` it is one colour space; every
    /// field nil (the default) means **decided from the sources at export**:
    /// - HDR — BT.2020 primaries and matrix, 10 bits, HLG, or PQ when every HDR source is PQ — when every video
    ///   source of the exported range is HDR (HLG or PQ transfer) and the output can carry 10 bits (HEVC, ProRes,
    ///   FFV1, or any codec whose settings ask for `bitDepth` 10);
    /// - otherwise SDR BT.709 (8 bits unless the settings ask for 10), the default before colour management.
    /// The image generator always renders SDR (RGBA8), tone-mapping HDR sources as an SDR export does.
    ///
    /// Fields that are set choose the space: the transfer decides SDR or HDR (a nil transfer with BT.2020
    /// primaries or matrix means HLG), and the other two must match it (BT.709 with BT.709, BT.2020 with HLG or
    /// PQ); other combinations are refused by the export. Each source is converted into the space once, on entry
    /// (docs/document-format.md, "Colour").
    public var colorPrimaries: VideoColorPrimaries?
    /// The transfer function of the composition's colour space (AVFoundation's `colorTransferFunction`); nil is
    /// decided as ``colorPrimaries`` says.
    public var colorTransferFunction: VideoTransferFunction?
    /// The Y'CbCr matrix of the composition's colour space (AVFoundation's `colorYCbCrMatrix`); nil is decided as
    /// ``colorPrimaries`` says.
    public var colorYCbCrMatrix: VideoYCbCrMatrix?
    /// A subtitle track of the composition drawn into the picture (open captions), above the layers and overlays;
    /// nil (the default) draws none. The track is still written as a subtitle track where the container holds one.
    public var subtitleBurnIn: SubtitleBurnIn?

    /// A video composition.
    ///
    /// - Parameters:
    ///   - renderSize: canvas in pixels.
    ///   - frameDuration: output frame interval.
    ///   - instructions: in time order.
    ///   - backgroundColor: opaque black by default.
    ///   - overlays: top-most first; none by default.
    public init(
        renderSize: Size, frameDuration: MediaTime, instructions: [VideoCompositionInstruction] = [],
        backgroundColor: Color = .black, overlays: [OverlayLayer] = []
    ) {
        self.renderSize = renderSize
        self.frameDuration = frameDuration
        self.instructions = instructions
        self.backgroundColor = backgroundColor
        self.overlays = overlays
    }

    /// An empty video composition to fill in later, as `AVMutableVideoComposition()`: render size ``Size/zero``,
    /// frame duration ``MediaTime/invalid`` (both "not set"), no instructions, no overlays, black background.
    ///
    /// Set ``renderSize``, ``frameDuration`` and ``instructions`` before rendering (the AVFoundation tutorial computes
    /// the render size after building the instructions); ``validate(for:)`` names each one still unset.
    public init() {
        self.init(renderSize: .zero, frameDuration: .invalid)
    }

    /// The instruction in force at composition time `time`: the first whose range contains it (half-open), or nil.
    public func instruction(at time: MediaTime) -> VideoCompositionInstruction? {
        instructions.first { $0.timeRange.contains(time) }
    }

    /// The background colour at `time`: the instruction's, or ``backgroundColor``.
    public func backgroundColor(at time: MediaTime) -> Color {
        instruction(at: time)?.backgroundColor ?? backgroundColor
    }

    /// The overlays drawn at `time`, top-most first: those visible at `time`, unless the instruction in force has
    /// `enablePostProcessing` off.
    public func visibleOverlays(at time: MediaTime) -> [OverlayLayer] {
        guard instruction(at: time)?.enablePostProcessing ?? true else { return [] }
        return overlays.filter { $0.isVisible(at: time) }
    }
}

extension MutableVideoComposition: Codable {
    private enum CodingKeys: String, CodingKey {
        case renderSize, frameDuration, backgroundColor, instructions, overlays
        case colorPrimaries, colorTransferFunction, colorYCbCrMatrix
        case subtitleBurnIn
    }

    /// Decodes a video composition; `renderSize` and `frameDuration` are required, the rest default as in the
    /// initializer.
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            renderSize: try container.decode(Size.self, forKey: .renderSize),
            frameDuration: try container.decode(MediaTime.self, forKey: .frameDuration),
            instructions: try container.decodeIfPresent([VideoCompositionInstruction].self, forKey: .instructions) ?? [],
            backgroundColor: try container.decodeIfPresent(Color.self, forKey: .backgroundColor) ?? .black,
            overlays: try container.decodeIfPresent([OverlayLayer].self, forKey: .overlays) ?? [])
        colorPrimaries = try container.decodeIfPresent(VideoColorPrimaries.self, forKey: .colorPrimaries)
        colorTransferFunction = try container.decodeIfPresent(VideoTransferFunction.self, forKey: .colorTransferFunction)
        colorYCbCrMatrix = try container.decodeIfPresent(VideoYCbCrMatrix.self, forKey: .colorYCbCrMatrix)
        subtitleBurnIn = try container.decodeIfPresent(SubtitleBurnIn.self, forKey: .subtitleBurnIn)
    }

    /// Encodes every field (the colour fields and the subtitle burn-in only when set).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(renderSize, forKey: .renderSize)
        try container.encode(frameDuration, forKey: .frameDuration)
        try container.encode(backgroundColor, forKey: .backgroundColor)
        try container.encode(instructions, forKey: .instructions)
        try container.encode(overlays, forKey: .overlays)
        try container.encodeIfPresent(colorPrimaries, forKey: .colorPrimaries)
        try container.encodeIfPresent(colorTransferFunction, forKey: .colorTransferFunction)
        try container.encodeIfPresent(colorYCbCrMatrix, forKey: .colorYCbCrMatrix)
        try container.encodeIfPresent(subtitleBurnIn, forKey: .subtitleBurnIn)
    }
}
