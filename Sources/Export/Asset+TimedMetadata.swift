import Composition
import Foundation
import SpliceFFmpeg

extension Asset {
    /// The timed metadata groups of the file at `url` (AVFoundation's `AVTimedMetadataGroup`s of an asset's
    /// metadata track, as an `AVAssetReaderOutputMetadataAdaptor` gives them): each group's items over its exact
    /// range in source time, in file order, from the file's first timed metadata track — the `tx3g` text track
    /// with the handler `Timed Metadata` that an export's ``AssetExportSession/timedMetadataGroups`` writes
    /// (SpliceFFmpeg's `TimedMetadataTrack`; ``load(from:)`` lists it as a `.data` track). Empty when the file has
    /// none. Reads the whole file on a thread of its own.
    /// - Throws: ``ExportError/sourceUnreadable(_:reason:)`` naming the file when it cannot be read, or the file, the
    ///   track and the time when a sample of the track is not a timed metadata sample; `CancellationError`.
    public static func loadTimedMetadataGroups(from url: URL) async throws -> [TimedMetadataGroup] {
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await WorkerThread.run(name: "splice.timed-metadata") {
                do {
                    return try TimedMetadataTrack.groups(in: InputFile(url: url, cancellation: cancellation))
                } catch {
                    if cancellation.isCancelled { throw CancellationError() }
                    throw ExportError.reading(error, source: url)
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
