import Composition
import SpliceFFmpeg

/// Gives the timed metadata groups of a timed metadata track, as AVFoundation's `AVAssetReaderOutputMetadataAdaptor`:
/// over an ``AssetReaderTrackOutput`` with nil settings of the track an ``AssetWriterInputMetadataAdaptor`` or an
/// export's `timedMetadataGroups` wrote (a `.metadata` track: the `tx3g` text track whose handler is named
/// `Timed Metadata`), each group's items over its sample's exact range in the track's timeline, in file order —
/// decoded as `Asset.loadTimedMetadataGroups(from:)` decodes them. The track's empty samples (its gaps) give no group.
public final class AssetReaderOutputMetadataAdaptor: Sendable {
    /// The output the samples come from.
    public let assetReaderTrackOutput: AssetReaderTrackOutput

    /// An adaptor over `output`.
    /// - Throws: ``AssetReaderError/settingsDoNotMatchTrack(trackID:mediaType:reason:)`` when the output has
    ///   settings or its track is not a timed metadata track (a `.metadata` track of codec `mov_text` whose
    ///   `handler_name` is `Timed Metadata`).
    public init(assetReaderTrackOutput output: AssetReaderTrackOutput) throws {
        let track = output.track
        let handler = track.metadata?.first { $0.key == "handler_name" }?.value
        guard output.outputSettings == nil, track.mediaType == .metadata, track.codecName == "mov_text",
              handler == TimedMetadataTrack.handlerName else {
            throw AssetReaderError.settingsDoNotMatchTrack(
                trackID: track.trackID, mediaType: track.mediaType,
                reason: "a metadata adaptor reads a timed metadata track (handler \"\(TimedMetadataTrack.handlerName)\") with nil settings, "
                    + "not a \(track.codecName) track with handler \"\(handler ?? "none")\"\(output.outputSettings == nil ? "" : " and settings")")
        }
        assetReaderTrackOutput = output
    }

    /// The next group, or nil when the track is read to its end (or the reader failed: see ``AssetReader/error``).
    /// - Throws: ``AssetReaderError/readFailed(_:trackID:time:reason:)`` naming the file, track and time for a
    ///   sample that is not a timed metadata sample.
    public func nextTimedMetadataGroup() async throws -> TimedMetadataGroup? {
        while let sample = await assetReaderTrackOutput.copyNextSampleBuffer() {
            let track = assetReaderTrackOutput.track
            do {
                if let group = try TimedMetadataTrack.group(ofSample: sample.dataBuffer ?? [], start: sample.presentationTime,
                                                            duration: sample.duration) {
                    return group
                }
            } catch {
                throw AssetReaderError.readFailed(track.assetURL, trackID: track.trackID, time: sample.presentationTime,
                                                  reason: "the sample is not a timed metadata sample (a 16-bit length, then key=value lines)")
            }
        }
        return nil
    }
}
