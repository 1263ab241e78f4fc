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

    /// Renders into a temporary file beside ``outputURL`` and moves it into place only on success; on failure or
    /// cancellation the temporary file is removed and any existing file at ``outputURL`` is left untouched.
    /// - Returns: true when the file length limit ended the export early.
    func write(cancellation: CancellationFlag, progress: @escaping (Double) -> Void) throws -> Bool {
        let directory = outputURL.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(outputURL.lastPathComponent).splice-\(UUID().uuidString).partial")
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
        } catch {
            unlink(temporary.path)
            throw error
        }
        try moveIntoPlace(temporary)
        return limitReached
    }

    /// `rename(2)` when replacing is allowed (atomic); otherwise `link(2)` + `unlink(2)`, which fails with EEXIST
    /// instead of clobbering a file that appeared while the export ran.
    private func moveIntoPlace(_ temporary: URL) throws {
        defer { unlink(temporary.path) }
        if overwritesExistingFile {
            if rename(temporary.path, outputURL.path) != 0 {
                throw ExportError.writeFailed(outputURL, reason: "moving the finished file into place: \(String(cString: strerror(errno)))")
            }
            return
        }
        if link(temporary.path, outputURL.path) != 0 {
            let code = errno
            if code == EEXIST { throw ExportError.outputFileExists(outputURL) }
            // File systems without hard links: fall back to a rename after re-checking.
            if FileManager.default.fileExists(atPath: outputURL.path) { throw ExportError.outputFileExists(outputURL) }
            if rename(temporary.path, outputURL.path) != 0 {
                throw ExportError.writeFailed(outputURL, reason: "moving the finished file into place: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The text of every filter graph the video export will build, compiled from the sources' described formats.
    func describeGraphs() throws -> String {
        var parts: [String] = []
        if let passthrough {
            return passthrough.pieces.map {
                "# stream copy (no filter graph): \($0.source.assetURL.lastPathComponent) track \($0.source.trackID) "
                    + "\($0.sourceRange) → \($0.targetStart)"
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
