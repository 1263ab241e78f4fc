import SpliceFFmpeg
import Composition
import Foundation
import VideoComposition

/// What the renderer needs to know about one layer of one instruction: the track and the model's own evaluators.
struct LayerPlan: Sendable {
    var trackID: Int32
    /// The layer transform at a composition time (maps source pixels to render pixels).
    var transform: @Sendable (MediaTime) -> AffineTransform2D
    /// Opacity 0…1 at a composition time.
    var opacity: @Sendable (MediaTime) -> Double
    /// Crop rectangle in source pixels at a composition time; nil = the full frame.
    var crop: @Sendable (MediaTime) -> Rect?
    /// The time ranges (renderer time, like the evaluators' argument) in which the opacity ramps. Outside them it
    /// holds a value and is compiled as a constant, so a one-second fade at the end of a long instruction costs
    /// per-frame alpha blending during that second only (an opaque layer covering the canvas needs no blending).
    var opacityRamps: [TimeRange]
    /// The layer's effects at a composition time, evaluated by the model, neutral ones left out.
    var effects: @Sendable (MediaTime) -> [VideoEffectValue] = { _ in [] }

    /// True when no opacity ramp is in force at `time`: the opacity is constant around it.
    func isOpacityConstant(at time: MediaTime) -> Bool {
        !opacityRamps.contains { $0.contains(time) }
    }
}

/// One instruction as the renderer sees it.
struct InstructionPlan: Sendable {
    var timeRange: TimeRange
    var background: RenderColor
    /// Index 0 is the top-most layer (AVFoundation's order).
    var layers: [LayerPlan]
    /// Whether overlays are drawn during this instruction.
    var drawsOverlays: Bool
    /// The instruction's transition between two of its layers, if any.
    var transition: TransitionPlan? = nil
}

/// An image overlay as the renderer sees it.
struct ImageOverlayPlan: Sendable {
    var url: URL
    var timeRange: TimeRange
    /// Frame (render pixels) at a composition time: position and size after animation.
    var frame: @Sendable (MediaTime) -> Rect
    /// Rotation about the frame's centre in radians, clockwise on screen, at a composition time.
    var rotation: @Sendable (MediaTime) -> Double
    var opacity: @Sendable (MediaTime) -> Double

    /// The overlay's graph configuration at composition time `time`, for a decoded image of format `input`.
    func configuration(at time: MediaTime, input: PictureFormat) -> ImageOverlayConfiguration {
        ImageOverlayConfiguration(input: input, frame: frame(time), rotation: rotation(time), opacity: opacity(time))
    }
}

/// A text overlay as the renderer sees it (drawn by FFmpeg's `drawtext`): its style, and its frame and opacity as
/// the model evaluates them.
struct TextOverlayPlan: Sendable {
    var style: TextStyle
    var timeRange: TimeRange
    var frame: @Sendable (MediaTime) -> Rect
    var opacity: @Sendable (MediaTime) -> Double

    /// The overlay's graph configuration at composition time `time`.
    func configuration(at time: MediaTime) -> TextOverlayConfiguration {
        TextOverlayConfiguration(style: style, frame: frame(time), opacity: opacity(time))
    }
}

/// Everything the video side of an export needs: the canvas, the output grid, the tracks and the instructions.
struct VideoPlan: Sendable {
    var renderSize: Size
    /// The encoded size: `renderSize` unless a sized preset scales it down.
    var outputSize: Size
    var frameDuration: MediaTime
    var duration: MediaTime
    var tracks: [RenderTrack]
    var instructions: [InstructionPlan]
    var imageOverlays: [ImageOverlayPlan] = []
    var textOverlays: [TextOverlayPlan] = []
    /// The colour space the layers are composited in and the output is encoded and tagged in.
    var color: CanvasColor = .standard
    /// HDR10 static metadata written with an HDR output (x265 SEI and the container's `mdcv`/`clli`): the sources'
    /// when they state it (``ExportPlanner/hdrMetadata(of:)``), nil otherwise and for SDR.
    var masteringDisplay: MasteringDisplay?
    var contentLightLevel: ContentLightLevel?
    /// The encoder's pixel format by FFmpeg's name when it differs from the canvas's (ProRes: `yuv422p10le`).
    var outputPixelFormat: String?
    /// The user's compositor, which renders every frame in place of the built-in layer compositing (nil: built-in).
    var custom: CustomCompositorPlan?
    /// True (default): effect amounts that filters take as commands are sent per frame, so a ramp keeps one graph
    /// (``LayerConfiguration/sendsEffectAmounts``). False writes every amount into the graph's text, one graph per
    /// frame of a ramp: the path before commands, kept for the benchmark's paired run and the tests' reference.
    var sendsEffectAmounts = true
    /// The subtitle track drawn into the pictures (``VideoComposition/SubtitleBurnIn``), as an ASS track on the
    /// export's clock.
    var subtitleBurnIn: SubtitleTrackPlan?
    /// The style ``subtitleBurnIn``'s cues are drawn in (libass style overrides), or nil for the script's own
    /// styles: set when the burn-in names one and the track's first source is not ASS/SSA.
    var subtitleBurnInStyle: SubtitleStyle?
    /// The ASS file of ``subtitleBurnIn``'s placed cues, written by the export before rendering starts; the render
    /// thread draws it with the `ass` filter (the `subtitles` filter with ``subtitleBurnInStyle``).
    var subtitleBurnInFile: String?

    /// Output frames: `ceil(duration / frameDuration)` (frame k shows composition time k·frameDuration).
    var frameCount: Int {
        guard duration.isNumeric, frameDuration.isNumeric, frameDuration > .zero, duration > .zero else { return 0 }
        let numerator = Int128(duration.value) * Int128(frameDuration.timescale)
        let denominator = Int128(duration.timescale) * Int128(frameDuration.value)
        return Int((numerator + denominator - 1) / denominator)
    }

    /// Composition time of output frame `index`: `index × frameDuration`, exact.
    func time(ofFrame index: Int) -> MediaTime { frameDuration * Int64(index) }
}

/// The audio side of an export.
struct AudioPlan: Sendable {
    var format: AudioOutputFormat
    var duration: MediaTime
    var tracks: [RenderTrack]
    /// Linear gain of each track at a composition time (the audio mix's `volume(at:)`), by track ID.
    var gains: [Int32: @Sendable (MediaTime) -> Double]
    /// Tracks whose speed changes also change pitch.
    var varispeedTrackIDs: Set<Int32>
    /// The crossfades each track takes part in, on the output sample grid, by track ID.
    var crossfades: [Int32: [CrossfadeWindow]] = [:]
    /// The true-peak limit of the mix in dBTP (``AssetExportSession/truePeakLimit``), nil for no limiter.
    var truePeakLimit: Double?

    /// Output samples: the composition duration on the output grid.
    var sampleCount: Int64 { format.sampleIndex(of: duration) }
}
