import Foundation
import Composition
import Export
import SpliceFFmpeg

/// What a writer's thread writes: plain data handed to the thread.
struct WriterJob: Sendable {
    struct Input: Sendable {
        var mediaType: MediaType
        var settings: AssetWriterInputSettings?
        var transform = AffineTransform2D.identity
        var languageCode: String?
        var metadata: [MetadataItem] = []
    }

    /// Segment output: the segmenter's settings and where its segments go.
    struct Segmentation: Sendable {
        var profile: FragmentedMP4Segmenter.Profile
        var interval: MediaTime
        var initialStart: MediaTime
        var delegate: any AssetWriterDelegate
        weak var writer: AssetWriter?
    }

    /// A live stream: where, and the sender's settings.
    struct LiveStream: Sendable {
        var destination: LiveStreamDestination
        var settings: LiveStreamSender.Settings
    }

    /// The file; nil when the output is segments or a live stream.
    var url: URL?
    var fileType: FileType
    var inputs: [Input]
    var optimizeForNetworkUse: Bool
    var metadata: [MetadataItem] = []
    var segmentation: Segmentation?
    /// A fragmented file written under ``url`` itself, a fragment every so often; nil for a regular movie.
    var fragmentInterval: MediaTime?
    /// Streamed live instead of written to a file; nil for a file or segments.
    var liveStream: LiveStream?

    /// The error for a failure whose cause is `reason`: naming the file, the live stream, or the segments.
    func failure(_ reason: String) -> AssetWriterError {
        if let liveStream { return .liveStreamFailed(destination: liveStream.destination.name, reason: reason) }
        guard let url else { return .segmentOutputFailed(reason: reason) }
        return .writeFailed(url, reason: reason)
    }
}
