import Foundation
import SpliceFFmpeg

/// Runs one ``ExportPlan`` on the calling (worker) thread: the passthrough copy or the render, into a temporary
/// file that becomes the output only when complete.
struct ExportJob {
    let plan: ExportPlan

    /// Renders into a ``TemporaryOutputFile`` in the output URL's directory — unnamed (`O_TMPFILE`) where the file
    /// system allows it, a hidden `.partial` file otherwise — and gives it its name only on success; on failure or
    /// cancellation the temporary file is dropped (an unnamed one leaves nothing even when the directory turned
    /// read-only meanwhile) and any existing file at the output URL is left untouched. A fragmented movie is
    /// written under the output URL from the start instead (``TemporaryOutputFile/init(inPlaceOf:replacing:)``).
    /// - Returns: true when the file length limit ended the export early.
    func run(cancellation: CancellationFlag, progress: @escaping (Double) -> Void) throws -> Bool {
        let temporary = try TemporaryOutputFile.make(
            for: plan.outputURL, inPlace: plan.movieFragmentInterval != nil, replacing: plan.overwritesExistingFile)
        let limitReached: Bool
        do {
            if let passthrough = plan.passthrough {
                try PassthroughWriter(plan: passthrough, subtitles: plan.subtitles, chapters: plan.chapters,
                                      timedMetadata: plan.timedMetadata, cancellation: cancellation, progress: progress)
                    .run(path: temporary.path)
                limitReached = false
            } else {
                let writer = ExportWriter(plan: plan, path: temporary.path, cancellation: cancellation, progress: progress)
                limitReached = try writer.run()
            }
            if cancellation.isCancelled { throw CancellationError() }
        } catch ExportError.writeFailed(let url, let reason) where temporary.isTemporary(url) {
            temporary.discard()
            throw ExportError.writeFailed(plan.outputURL, reason: reason)  // the caller knows its file, not our hidden one
        } catch ExportError.outputNotWritable(let url, let reason) where temporary.isTemporary(url) {
            temporary.discard()
            throw ExportError.outputNotWritable(plan.outputURL.deletingLastPathComponent(), reason: reason)
        } catch {
            temporary.discard()
            throw error
        }
        try temporary.commit(to: plan.outputURL, replacing: plan.overwritesExistingFile)
        return limitReached
    }
}
