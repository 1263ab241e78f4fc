import AudioMix
import Composition
import Foundation
import VideoComposition

/// A composition — with its own video composition and audio mix — made into a source for another composition, as
/// AVFoundation lets an `AVComposition`'s tracks be inserted into another composition: pre-composed, with its own
/// timing.
///
/// Design: the nested composition is rendered once, losslessly, to an intermediate movie (``precompose(to:)``),
/// and that movie is an ordinary ``Composition/Asset``: its video track is the nested composition's canvas (FFV1,
/// in the canvas's own format — 8-bit 4:2:0 BT.709 for SDR, so the outer composition takes it untouched at
/// identity), its audio track the nested mix (16-bit PCM at the nested output rate). Insert any range of its tracks
/// into the outer composition like any file's (`insertTimeRange(_:of:at:intoTrackWithID:)`), trim it, scale it,
/// place it with layer instructions; the outer renderer never needs to know it was a composition, and the image
/// generator, smart rendering and segments treat it as the file it is.
///
/// Exactness: the pictures are the nested render's exactly, so an outer edit that shows them at identity equals
/// the same edit written flat pixel for pixel (tested against a lossless export). Sound is rounded to 16-bit samples
/// once, as a PCM export rounds it: played at unity gain it equals the flat edit's 16-bit PCM sample for sample
/// (tested); an outer gain or AAC output applies to those rounded samples (within one 16-bit step, 1/32768, of the
/// flat mix before its own rounding).
///
/// Cost: one extra render of the nested composition's whole range (its own decode and composite, no lossy encode),
/// and disk space for the intermediate: FFV1 keeps every bit of the 4:2:0 canvas (1.5 bytes a pixel raw; measured
/// 3.2 MB a second for FFmpeg's `testsrc2` at 1920 × 1080, 30 fps; camera footage compresses far less, around half
/// of the raw 93 MB a second), plus 192 kB a second of stereo 48 kHz sound. The outer render then decodes FFV1.
///
/// A nested composition cannot contain itself (models are values, so a cycle cannot be built); documents that
/// name other documents check their chain for cycles (``NestedCompositionError/cycle(_:)``).
public struct NestedComposition: Sendable {
    /// The nested composition.
    public var composition: MutableComposition
    /// How its video looks; nil uses `MutableVideoComposition(propertiesOf:)`, as an export.
    public var videoComposition: MutableVideoComposition?
    /// How its audio tracks are mixed; nil plays every track at unity gain.
    public var audioMix: MutableAudioMix?
    /// A custom compositor for the nested composition's frames (``VideoCompositing``); nil: the built-in path.
    public var customVideoCompositor: (any VideoCompositing)?

    /// A nested composition of `composition`, with its own video composition and audio mix.
    public init(composition: MutableComposition, videoComposition: MutableVideoComposition? = nil,
                audioMix: MutableAudioMix? = nil) {
        self.composition = composition
        self.videoComposition = videoComposition
        self.audioMix = audioMix
    }

    /// The intermediate's encoder settings: FFV1 (lossless) and 16-bit PCM, 48 kHz stereo.
    public static let intermediateSettings = ExportSettings(
        video: VideoSettings(codec: .ffv1), audio: AudioSettings(codec: .pcm, sampleRate: 48_000, channelCount: 2))

    /// Renders the nested composition (``intermediateSettings``) to the QuickTime movie `url` and returns it loaded,
    /// ready to insert into another composition. The file is yours: remove it when the outer exports are done.
    ///
    /// - Parameter url: a `.mov` file URL where no file exists yet (QuickTime keeps every timestamp exact).
    /// - Returns: the intermediate as an ``Composition/Asset``; its duration is the nested composition's.
    /// - Throws: the ``ExportError``s of ``AssetExportSession/export()`` (invalid nested models among them) and of
    ///   `Asset.load(from:)`; `CancellationError`.
    public func precompose(to url: URL) async throws -> Asset {
        let session = AssetExportSession(asset: composition, settings: Self.intermediateSettings)
        session.outputURL = url
        session.outputFileType = .mov
        session.videoComposition = videoComposition
        session.audioMix = audioMix
        session.customVideoCompositor = customVideoCompositor
        try await session.export()
        return try await Asset.load(from: url)
    }

    /// ``precompose(to:)`` into a new file `splice-nested-<UUID>.mov` in `directory` (the temporary directory by
    /// default). The caller removes it (`asset.url`) when done.
    /// - Throws: as ``precompose(to:)``.
    public func precompose(in directory: URL = FileManager.default.temporaryDirectory) async throws -> Asset {
        try await precompose(to: directory.appendingPathComponent("splice-nested-\(UUID().uuidString).mov"))
    }
}

/// Why compositions cannot be nested as asked.
public enum NestedCompositionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The files (documents) name each other in a cycle; the chain is listed from the outermost, ending with the
    /// first file named again.
    case cycle([URL])

    /// One sentence naming the chain.
    public var description: String {
        switch self {
        case .cycle(let chain):
            return "compositions nest in a cycle: " + chain.map(\.lastPathComponent).joined(separator: " → ")
        }
    }
}
