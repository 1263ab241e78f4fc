import Foundation
import Composition
import SpliceFFmpeg

/// The samples of one track, as AVFoundation's `AVAssetReaderTrackOutput`: with nil settings the stored compressed
/// samples (what a passthrough ``AssetWriterInput`` takes), otherwise decoded pictures or sound in the format the
/// ``AssetReaderOutputSettings`` name.
///
/// Take samples with ``copyNextSampleBuffer()`` or iterate the output (`for try await sample in output`). The
/// output's thread reads ahead by at most ``readAheadCount`` samples and waits while they are not taken
/// (back-pressure).
public final class AssetReaderTrackOutput: AssetReaderOutput, ReaderOutputParts {
    /// Samples read ahead of the consumer, at most.
    public static let readAheadCount = ReaderOutputCore.readAheadCount

    /// The track read.
    public let track: AssetTrack
    /// What the samples are decoded to; nil hands out the stored compressed samples.
    public let outputSettings: AssetReaderOutputSettings?
    /// The track's media type.
    public var mediaType: MediaType { track.mediaType }

    let core: ReaderOutputCore

    /// An output reading `track` decoded per `outputSettings` (nil: compressed, as stored).
    public init(track: AssetTrack, outputSettings: AssetReaderOutputSettings?) {
        self.track = track
        self.outputSettings = outputSettings
        core = ReaderOutputCore(name: "track \(track.trackID)") { error in
            error as? AssetReaderError
                ?? AssetReaderError.readFailed(track.assetURL, trackID: track.trackID, time: nil, reason: FailureReason.words(for: error))
        }
    }

    /// The most samples that ever waited for the consumer at once (at most ``readAheadCount``).
    package var peakReadAheadCount: Int { core.peakReadAheadCount }

    func check(for reader: AssetReader) throws {
        guard let asset = reader.asset else { throw AssetReaderError.trackOutputOnComposition(trackID: track.trackID) }
        guard asset.track(withTrackID: track.trackID) != nil, asset.url == track.assetURL else {
            throw AssetReaderError.trackNotInAsset(trackID: track.trackID, asset: asset.url)
        }
        switch outputSettings {
        case nil:
            break
        case .video(let settings)?:
            guard track.mediaType == .video else {
                throw AssetReaderError.settingsDoNotMatchTrack(trackID: track.trackID, mediaType: track.mediaType,
                                                               reason: "decoded video settings on \(track.mediaType == .audio ? "an" : "a") \(track.mediaType.rawValue) track")
            }
            try settings.check()
        case .audio(let settings)?:
            guard track.mediaType == .audio else {
                throw AssetReaderError.settingsDoNotMatchTrack(trackID: track.trackID, mediaType: track.mediaType,
                                                               reason: "decoded audio settings on \(track.mediaType == .audio ? "an" : "a") \(track.mediaType.rawValue) track")
            }
            try settings.check()
        }
        if outputSettings != nil && !track.isDecodable {
            throw AssetReaderError.trackNotDecodable(trackID: track.trackID, codecName: track.codecName)
        }
    }

    func makePass(range: TimeRange?, reader: AssetReader) throws -> ReadingPass {
        let job = TrackReadingJob(url: track.assetURL, track: track, settings: outputSettings, timeRange: range,
                                  lendingOutput: core.lendingOutput)
        return { cancellation, deliver in
            try TrackReading(job: job, cancellation: cancellation).run(deliver: deliver)
        }
    }
}

extension AssetReaderTrackOutput: AsyncSequence {
    /// Each element is one sample.
    public typealias Element = SampleBuffer
}
