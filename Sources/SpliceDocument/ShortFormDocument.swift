import Composition
import VideoComposition

/// A composition document in its short form, for writing by hand: clips laid back to back (with optional
/// cross-dissolves, fit, volume and speed), music under them and overlays above them. ``expanded(assets:folder:)``
/// turns it into the full form (``CompositionDocument``) — the library's own models — which is what gets rendered
/// and what `splice expand` prints.
///
/// ```json
/// {
///   "version": 1,
///   "renderSize": [1280, 720],
///   "clips": [
///     { "source": "a.mp4", "start": "1s", "duration": "3s", "transition": { "type": "crossDissolve", "duration": "0.5s" } },
///     { "source": "b.mov", "fit": "fill", "volume": 0.8, "speed": 2 }
///   ],
///   "music": { "source": "music.m4a", "volume": 0.5, "fadeOut": "3s" },
///   "overlays": [ { "image": "logo.png", "position": "bottomRight", "margin": 24 } ],
///   "export": { "preset": "1280x720" }
/// }
/// ```
public struct ShortFormDocument: Sendable, Hashable, Codable {
    /// The format version; ``CompositionDocument/currentVersion``.
    public var version: Int
    /// The canvas in pixels (written `[width, height]` or `{"width": …, "height": …}`); nil for the first clip's
    /// upright picture size (rounded up to even numbers).
    public var renderSize: Size?
    /// Output frames per second; nil for 30. Also the rate of times written in frames (`"90f"`).
    public var frameRate: FrameRate?
    /// The colour behind the clips (bars of a fitted clip, fades to black); nil for opaque black.
    public var backgroundColor: Color?
    /// The clips, played one after the other (a transition overlaps a clip with the next).
    public var clips: [Clip]
    /// The colour space the clips are composited in (AVFoundation's `colorPrimaries`), copied to the expanded video
    /// composition; nil: decided from the sources and the output, as ``VideoComposition/MutableVideoComposition/colorPrimaries`` says.
    public var colorPrimaries: VideoColorPrimaries?
    /// The transfer function of that colour space (`colorTransferFunction`: SDR, HLG or PQ); nil: decided.
    public var colorTransferFunction: VideoTransferFunction?
    /// The Y'CbCr matrix of that colour space (`colorYCbCrMatrix`); nil: decided. The bit depth is the output's:
    /// `export.settings.video.bitDepth`.
    public var colorYCbCrMatrix: VideoYCbCrMatrix?
    /// Music played under the clips from the start, for at most their length.
    public var music: Music?
    /// Image and text overlays drawn above the clips, the first one top-most.
    public var overlays: [Overlay]?
    /// Sidecar subtitle files on the edit's timeline, one subtitle track each.
    public var subtitles: [Subtitles]?
    /// How the file is written.
    public var export: DocumentExport?

    /// A short-form document of the current version.
    public init(
        clips: [Clip], renderSize: Size? = nil, frameRate: FrameRate? = nil, backgroundColor: Color? = nil,
        music: Music? = nil, overlays: [Overlay]? = nil, export: DocumentExport? = nil,
        colorPrimaries: VideoColorPrimaries? = nil, colorTransferFunction: VideoTransferFunction? = nil,
        colorYCbCrMatrix: VideoYCbCrMatrix? = nil, subtitles: [Subtitles]? = nil
    ) {
        self.subtitles = subtitles
        self.version = CompositionDocument.currentVersion
        self.clips = clips
        self.renderSize = renderSize
        self.frameRate = frameRate
        self.backgroundColor = backgroundColor
        self.music = music
        self.overlays = overlays
        self.export = export
        self.colorPrimaries = colorPrimaries
        self.colorTransferFunction = colorTransferFunction
        self.colorYCbCrMatrix = colorYCbCrMatrix
    }

    private enum CodingKeys: String, CodingKey {
        case version, renderSize, frameRate, backgroundColor, colorPrimaries, colorTransferFunction, colorYCbCrMatrix
        case clips, music, overlays, subtitles, export
    }

    /// Decodes the document; `version` and `clips` are required. `renderSize` may be `[width, height]`.
    ///
    /// - Throws: `DecodingError` naming the missing key or malformed value.
    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        if let pair = try? container.decodeIfPresent([Int].self, forKey: .renderSize) {
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .renderSize, in: container, debugDescription: "a render size is [width, height], found \(pair.count) numbers")
            }
            renderSize = Size(width: pair[0], height: pair[1])
        } else {
            renderSize = try container.decodeIfPresent(Size.self, forKey: .renderSize)
        }
        frameRate = try container.decodeIfPresent(FrameRate.self, forKey: .frameRate)
        backgroundColor = try container.decodeIfPresent(Color.self, forKey: .backgroundColor)
        colorPrimaries = try container.decodeIfPresent(VideoColorPrimaries.self, forKey: .colorPrimaries)
        colorTransferFunction = try container.decodeIfPresent(VideoTransferFunction.self, forKey: .colorTransferFunction)
        colorYCbCrMatrix = try container.decodeIfPresent(VideoYCbCrMatrix.self, forKey: .colorYCbCrMatrix)
        clips = try container.decode([Clip].self, forKey: .clips)
        music = try container.decodeIfPresent(Music.self, forKey: .music)
        overlays = try container.decodeIfPresent([Overlay].self, forKey: .overlays)
        subtitles = try container.decodeIfPresent([Subtitles].self, forKey: .subtitles)
        export = try container.decodeIfPresent(DocumentExport.self, forKey: .export)
    }

    /// Encodes every field that is set (`renderSize` as `[width, height]`).
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        if let renderSize { try container.encode([renderSize.width, renderSize.height], forKey: .renderSize) }
        try container.encodeIfPresent(frameRate, forKey: .frameRate)
        try container.encodeIfPresent(backgroundColor, forKey: .backgroundColor)
        try container.encodeIfPresent(colorPrimaries, forKey: .colorPrimaries)
        try container.encodeIfPresent(colorTransferFunction, forKey: .colorTransferFunction)
        try container.encodeIfPresent(colorYCbCrMatrix, forKey: .colorYCbCrMatrix)
        try container.encode(clips, forKey: .clips)
        try container.encodeIfPresent(music, forKey: .music)
        try container.encodeIfPresent(overlays, forKey: .overlays)
        try container.encodeIfPresent(subtitles, forKey: .subtitles)
        try container.encodeIfPresent(export, forKey: .export)
    }
}
