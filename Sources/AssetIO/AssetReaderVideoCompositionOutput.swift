import Composition
import Export
import SpliceFFmpeg
import VideoComposition

/// The composited pictures of video tracks, as AVFoundation's `AVAssetReaderVideoCompositionOutput`: exactly the
/// frames an export of the same composition, video composition and time range encodes — the export's own planner,
/// compositor and graphs render them — converted to ``videoSettings``'s pixel format and size.
///
/// Frame k is stamped at `timeRange.start + k × frameDuration` (composition time) and lasts one frame duration, the
/// last one ending exactly at the range's end. With a reader of a file (`AssetReader(asset:)`), the tracks are the
/// file's, composed as `MutableComposition(asset:)`.
public final class AssetReaderVideoCompositionOutput: AssetReaderOutput, ReaderOutputParts {
    /// The composition tracks drawn (their track IDs).
    public let videoTrackIDs: [Int32]
    /// What the pictures are converted to; nil gives BGRA8 at the render size.
    public let videoSettings: DecodedVideoSettings?
    /// Always video.
    public var mediaType: MediaType { .video }

    let core: ReaderOutputCore
    private let composition = Locked<MutableVideoComposition?>(nil)
    private let compositor = Locked<(any VideoCompositing)?>(nil)

    /// An output drawing `videoTracks` of the reader's composition.
    public convenience init(videoTracks: [CompositionTrack], videoSettings: DecodedVideoSettings?) {
        self.init(trackIDs: videoTracks.map(\.trackID), videoSettings: videoSettings)
    }

    /// An output drawing `videoTracks` of the reader's file (their composition tracks keep the files' track IDs
    /// when the file has one track per format; otherwise the IDs `MutableComposition(asset:)` gives).
    public convenience init(videoTracks: [AssetTrack], videoSettings: DecodedVideoSettings?) {
        self.init(trackIDs: videoTracks.map(\.trackID), videoSettings: videoSettings)
    }

    init(trackIDs: [Int32], videoSettings: DecodedVideoSettings?) {
        videoTrackIDs = trackIDs
        self.videoSettings = videoSettings
        core = ReaderOutputCore(name: "the video composition output of tracks \(trackIDs)") { error in
            error as? AssetReaderError ?? AssetReaderError.renderingFailed(
                output: "the video composition output of tracks \(trackIDs)", reason: FailureReason.words(for: error))
        }
    }

    /// How the tracks are composed (AVFoundation requires one; nil here uses `MutableVideoComposition(propertiesOf:)`
    /// of the reader's composition, as export does). Set before ``AssetReader/startReading()``; validated then.
    public var videoComposition: MutableVideoComposition? {
        get { composition.withLock { $0 } }
        set { if core.reader?.status ?? .unknown == .unknown { composition.withLock { $0 = newValue } } }
    }

    /// Your own compositor (`VideoCompositing`), called for every frame in place of the built-in layer compositing,
    /// exactly as an export with the same ``AssetExportSession/customVideoCompositor`` calls it (AVFoundation's
    /// `customVideoCompositor`, which comes from the video composition's class); nil (default) composites built-in.
    /// Set before ``AssetReader/startReading()``.
    public var customVideoCompositor: (any VideoCompositing)? {
        get { compositor.withLock { $0 } }
        set { if core.reader?.status ?? .unknown == .unknown { compositor.withLock { $0 = newValue } } }
    }

    func check(for reader: AssetReader) throws {
        try reader.checkCompositionTracks(videoTrackIDs, mediaType: .video)
        try videoSettings?.check()
    }

    func makePass(range: TimeRange?, reader: AssetReader) throws -> ReadingPass {
        let settings = videoSettings ?? DecodedVideoSettings()
        let rendering = try reader.planComposition { composition in
            try CompositionVideoRendering(
                composition: composition, videoComposition: videoComposition, trackIDs: videoTrackIDs,
                timeRange: range ?? TimeRange(start: .zero, duration: .positiveInfinity),
                keepsHDR: settings.pixelFormat.bitDepth > 8, customVideoCompositor: customVideoCompositor)
        }
        let lendingOutput = core.lendingOutput
        return { cancellation, deliver in
            try CompositionReading.renderPictures(rendering, settings: settings, lendingOutput: lendingOutput,
                                                  cancellation: cancellation, deliver: deliver)
        }
    }
}

extension AssetReaderVideoCompositionOutput: AsyncSequence {
    /// Each element is one sample.
    public typealias Element = SampleBuffer
}
