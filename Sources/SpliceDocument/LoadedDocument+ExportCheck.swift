import Composition
import Export
import Foundation

extension LoadedDocument {
    /// Makes every check the export makes before it writes — ``Export/AssetExportSession/validate()`` on `session`,
    /// the same code path as `export()` — and reports a refusal as a problem at its place in the document.
    ///
    /// `splice validate` and `splice export` both call this, so a document that validates is one that export
    /// accepts (short of failures while writing: a full disk, a source damaged part-way).
    ///
    /// - Parameter session: the session ``makeExportSession(outputURL:overwrite:)`` made.
    /// - Throws: ``DocumentError`` with one problem (``problem(for:)``) when export would refuse because of the
    ///   document; ``Export/ExportError/outputFileExists(_:)`` and ``Export/ExportError/outputNotWritable(_:reason:)``
    ///   as they are (the output location is the caller's, not the document's), and so is a refusal of the
    ///   session's `movieFragmentInterval` or `concurrentSegments` when the caller gave it a value the document's
    ///   `export` does not (`splice export --fragment-interval`, `--segments`); `CancellationError`.
    public func checkExport(_ session: AssetExportSession) async throws {
        do {
            try await session.validate()
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as ExportError where refusesCallersSetting(error, of: session) {
            throw error  // about a value the caller set, not the document's
        } catch ExportError.outputFileExists(let url) {
            throw ExportError.outputFileExists(url)  // about the command line, not the document
        } catch ExportError.outputNotWritable(let url, let reason) {
            throw ExportError.outputNotWritable(url, reason: reason)
        } catch {
            throw DocumentError(url: url, problems: [problem(for: error)])
        }
    }

    /// Whether `error` refuses the session's `movieFragmentInterval` or `concurrentSegments` (its message names
    /// the property, as ``settingsPath(for:)`` reads it) while the session holds a value the caller set, other than
    /// the one the document's `export` gives.
    private func refusesCallersSetting(_ error: ExportError, of session: AssetExportSession) -> Bool {
        let message = error.description
        if message.contains("movieFragmentInterval") {
            return export.movieFragmentInterval.map { $0 != session.movieFragmentInterval } ?? true
        }
        if message.contains("concurrentSegments") {
            return export.concurrentSegments != session.concurrentSegments
        }
        return false
    }

    /// An export refusal as a problem at the document path it concerns, with the line and column where the
    /// document text has that value: `export.fileType` (or `export.concurrentSegments`,
    /// `export.movieFragmentInterval`, `export.preset`,
    /// `export.settings`) for container, codec, encoder and settings refusals; `composition.tracks[i].segments[k]`
    /// for a passthrough cut (full form; in a short-form document, the expanded form's path); the video
    /// composition's and audio mix's issues at their paths; the document as a whole otherwise (output location,
    /// unreadable source).
    public func problem(for error: any Error) -> DocumentProblem {
        let message = (error as? ExportError)?.description ?? "\(error)"
        var problems = ProblemList()
        problems.marksExpandedForm = false
        let exportPath = settingsPath(for: message)
        switch error as? ExportError {
        case .unsupportedSettings?, .encoderUnavailable?:
            problems.add(exportPath, message)
        case .passthroughNotPossible(let reason)?:
            if let segment = segmentPath(named: reason) {
                problems.marksExpandedForm = form == .short
                problems.add(segment, message)
            } else {
                problems.add(exportPath, message)
            }
        case .invalidVideoComposition(let issues)?:
            let path = videoComposition.flatMap { composition in issues.first.map { $0.videoCompositionPath(in: composition) } }
            problems.add(path ?? DocumentPath("videoComposition"), message)
        case .invalidAudioMix(let issues)?:
            let path = audioMix.flatMap { mix in issues.first.map { $0.audioMixPath(in: mix) } }
            problems.add(path ?? DocumentPath("audioMix"), message)
        case .filterUnavailable?:
            problems.add(DocumentPath("videoComposition"), message)
        case .invalidComposition(let reason)?:
            problems.add(reason.contains("export time range") ? DocumentPath("export.timeRange") : DocumentPath(), message)
        default:
            problems.add(DocumentPath(), message)
        }
        let tree = try? DocumentReader.read(url).tree
        return problems.located(in: tree).first ?? DocumentProblem(path: DocumentPath(), message: message)
    }

    /// The `export` member a settings refusal concerns: `subtitleCodec` when the message is about a subtitle format
    /// the container cannot hold and the document names one, `fileType` when the message is about the container and
    /// the document names one, `concurrentSegments` or `movieFragmentInterval` when the message is about it (`export`
    /// when the caller, not the document, set it), else the preset or settings the document gives, else `export`.
    private func settingsPath(for message: String) -> DocumentPath {
        if message.contains("movieFragmentInterval") {
            // Set by the document, or by the caller (`splice export --fragment-interval`): then the export as a whole.
            return DocumentPath(parsing: export.movieFragmentInterval != nil ? "export.movieFragmentInterval" : "export")
        }
        if message.contains("concurrentSegments") {
            // Set by the document, or by the caller (`splice export --segments`): then the export as a whole.
            return DocumentPath(parsing: export.concurrentSegments != nil ? "export.concurrentSegments" : "export")
        }
        if message.contains(" file cannot hold "), message.contains(" subtitles"), export.subtitleCodec != nil {
            return DocumentPath("export.subtitleCodec")
        }
        if message.contains(" file cannot hold "), export.fileType != nil { return DocumentPath("export.fileType") }
        if export.preset != nil { return DocumentPath("export.preset") }
        if export.settings != nil { return DocumentPath("export.settings") }
        return DocumentPath("export")
    }

    /// `composition.tracks[i].segments[k]` for the first "segments[k] of track N" a passthrough refusal names.
    private func segmentPath(named reason: String) -> DocumentPath? {
        guard let match = reason.firstMatch(of: /segments\[(\d+)\] of track (\d+)/),
              let segment = Int(match.1), let trackID = Int32(match.2),
              let trackIndex = document.composition.tracks.firstIndex(where: { $0.trackID == trackID })
        else { return nil }
        return DocumentPath("composition.tracks").appending(trackIndex).appending("segments").appending(segment)
    }
}
