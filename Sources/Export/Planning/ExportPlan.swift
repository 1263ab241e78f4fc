import Composition
import Foundation

/// A fully checked export: the render plans plus where and how to write them. Made by ``ExportPlanner`` before any
/// file is touched; ``write(cancellation:progress:)`` does the work on the calling (worker) thread.
struct ExportPlan: Sendable {
    var video: VideoPlan?
    var audio: AudioPlan?
    var settings: ExportSettings
    var fileType: FileType
    var outputURL: URL
    var overwritesExistingFile: Bool
    var metadata: [(String, String)]
    var optimizeForNetworkUse: Bool
    var fileLengthLimit: Int64?
    /// Set for the passthrough preset: packets are copied instead of rendered.
    var passthrough: PassthroughPlan?

    /// Renders into a ``TemporaryOutputFile`` in ``outputURL``'s directory — unnamed (`O_TMPFILE`) where the file
    /// system allows it, a hidden `.partial` file otherwise — and gives it its name only on success; on failure or
    /// cancellation the temporary file is dropped (an unnamed one leaves nothing even when the directory turned
    /// read-only meanwhile) and any existing file at ``outputURL`` is left untouched.
    /// - Returns: true when the file length limit ended the export early.
    func write(cancellation: CancellationFlag, progress: @escaping (Double) -> Void) throws -> Bool {
        let temporary = TemporaryOutputFile(for: outputURL)
        let job = ExportJob(
            video: video, audio: audio, settings: settings, fileType: fileType, path: temporary.path,
            metadata: metadata, optimizeForNetworkUse: optimizeForNetworkUse, fileLengthLimit: fileLengthLimit)
        let limitReached: Bool
        do {
            if let passthrough {
                try PassthroughWriter(plan: passthrough, cancellation: cancellation, progress: progress).run(path: temporary.path)
                limitReached = false
            } else {
                let renderer = try ExportRenderer(job: job, cancellation: cancellation, progress: progress)
                limitReached = try renderer.run()
            }
            if cancellation.isCancelled { throw CancellationError() }
        } catch ExportError.writeFailed(let url, let reason) where temporary.isTemporary(url) {
            temporary.discard()
            throw ExportError.writeFailed(outputURL, reason: reason)  // the caller knows its file, not our hidden one
        } catch ExportError.outputNotWritable(let url, let reason) where temporary.isTemporary(url) {
            temporary.discard()
            throw ExportError.outputNotWritable(outputURL.deletingLastPathComponent(), reason: reason)
        } catch {
            temporary.discard()
            throw error
        }
        try temporary.commit(to: outputURL, replacing: overwritesExistingFile)
        return limitReached
    }

    /// The text of every filter graph the video export will build, compiled from the sources' described formats.
    func describeGraphs() throws -> String {
        var parts: [String] = []
        if let passthrough {
            return passthrough.tracks.flatMap { track in
                track.pieces.map {
                    "# stream copy (no filter graph): track \(track.trackID) segments[\($0.segmentIndex)] ← "
                        + "\($0.source.assetURL.lastPathComponent) track \($0.source.trackID) \($0.sourceRange) at \($0.targetStart)"
                }
            }.joined(separator: "\n")
        }
        if let video {
            parts.append(contentsOf: try VideoGraphPreview(plan: video).descriptions())
        }
        if let audio {
            parts.append("# audio: \(audio.tracks.count) track(s) → \(audio.format.sampleRate) Hz \(audio.format.layoutName), "
                         + "per segment: atrim → [atempo] → [pan] → aresample → aformat; mixed by summation")
        }
        return parts.joined(separator: "\n\n")
    }
}
