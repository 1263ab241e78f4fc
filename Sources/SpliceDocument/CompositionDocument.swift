import AudioMix
import Composition
import VideoComposition

/// A composition document in its full form: the `Codable` form of Splice's own models — a composition, an optional
/// video composition and audio mix — plus export settings, versioned. This is what `splice export` renders and what
/// `splice expand` prints for a short-form document (``ShortFormDocument``).
///
/// ```json
/// {
///   "version": 1,
///   "composition": { "tracks": [ { "trackID": 1, "mediaType": "video", "segments": [
///     { "source": "clipA.mp4", "track": "video", "timeRange": { "start": "0s", "duration": "4s" }, "at": "0s" } ] } ] },
///   "videoComposition": { "renderSize": { "width": 640, "height": 360 }, "frameDuration": "1/30", "instructions": [ … ] },
///   "audioMix": { "inputParameters": [ … ] },
///   "export": { "preset": "AVAssetExportPreset1280x720" }
/// }
/// ```
///
/// The only difference from the models' own JSON is in the composition: a model segment embeds a full snapshot of
/// its source track (``Composition/AssetTrack``), which a person cannot write; a document segment
/// (``DocumentSegment``) names the source file and track instead, and loading probes the file to fill in the
/// snapshot. Times may be written in any ``TimeSyntax`` form when a document is loaded with
/// ``load(from:assetLoader:)``.
public struct CompositionDocument: Sendable, Hashable, Codable {
    /// The document format version this library reads and writes.
    public static let currentVersion = 1

    /// The format version; ``currentVersion``.
    public var version: Int
    /// The tracks and their segments.
    public var composition: DocumentComposition
    /// How the video tracks are drawn; nil for `MutableVideoComposition(propertiesOf:)` (upright, aspect-fit).
    public var videoComposition: MutableVideoComposition?
    /// How the audio tracks are mixed; nil plays every track at its preferred volume.
    public var audioMix: MutableAudioMix?
    /// How the file is written; nil for the defaults of ``DocumentExport``.
    public var export: DocumentExport?

    /// A document of the current version.
    public init(
        composition: DocumentComposition, videoComposition: MutableVideoComposition? = nil,
        audioMix: MutableAudioMix? = nil, export: DocumentExport? = nil
    ) {
        self.version = Self.currentVersion
        self.composition = composition
        self.videoComposition = videoComposition
        self.audioMix = audioMix
        self.export = export
    }
}
