import Foundation
import Splice

/// Loading a document for a command, with its problems printed compiler-style.
enum DocumentLoading {
    /// Loads the document or `.otio` timeline at `path` (as typed), probing its sources with `Asset.load(from:)`;
    /// the effects of a timeline left out under `dropsUnsupportedEffects` are listed on standard error.
    ///
    /// - Throws: ``CommandExit`` with ``ExitStatus/invalidInput`` after printing every problem, or
    ///   ``ExitStatus/cancelled`` when interrupted.
    static func load(_ path: String, dropsUnsupportedEffects: Bool = false) async throws(CommandExit) -> LoadedDocument {
        try await loadWithTimeline(path, dropsUnsupportedEffects: dropsUnsupportedEffects).loaded
    }

    /// ``load(_:dropsUnsupportedEffects:)``, with what an `.otio` timeline was read with (its name, metadata,
    /// global start time and markers; nil for a document).
    ///
    /// - Throws: ``CommandExit`` as ``load(_:dropsUnsupportedEffects:)`` does.
    static func loadWithTimeline(
        _ path: String, dropsUnsupportedEffects: Bool = false
    ) async throws(CommandExit) -> (loaded: LoadedDocument, timeline: OpenTimelineIO.ImportedTimeline?) {
        do {
            return try await documentAndTimeline(at: path, dropsUnsupportedEffects: dropsUnsupportedEffects)
        } catch let error as DocumentError {
            print(error, documentPath: path)
            throw CommandExit(
                status: .invalidInput, detail: error.problems.map { line(for: $0, documentPath: path) }.joined(separator: "\n"))
        } catch is CancellationError {
            Console.error("splice: cancelled")
            throw CommandExit(status: .cancelled)
        } catch {
            Console.error("splice: \(path): \(error)")
            throw CommandExit(status: .invalidInput, detail: "\(path): \(error)")
        }
    }

    /// The document at `path`: an OpenTimelineIO timeline when its name ends in `.otio`, else a composition document.
    ///
    /// - Throws: ``DocumentError``, `CancellationError`, or what loading a source throws.
    static func document(at path: String, dropsUnsupportedEffects: Bool = false) async throws -> LoadedDocument {
        try await documentAndTimeline(at: path, dropsUnsupportedEffects: dropsUnsupportedEffects).loaded
    }

    /// ``document(at:dropsUnsupportedEffects:)``, with the timeline an `.otio` file was read with.
    ///
    /// - Throws: ``DocumentError``, `CancellationError`, or what loading a source throws.
    static func documentAndTimeline(
        at path: String, dropsUnsupportedEffects: Bool = false
    ) async throws -> (loaded: LoadedDocument, timeline: OpenTimelineIO.ImportedTimeline?) {
        let url = URL(fileURLWithPath: path)
        guard OpenTimelineIO.isTimelineFile(url) else { return (try await CompositionDocument.load(from: url), nil) }
        let (loaded, timeline) = try await OpenTimelineIO.load(
            from: url, options: OpenTimelineIO.ReadingOptions(dropsUnsupportedEffects: dropsUnsupportedEffects))
        for dropped in timeline.droppedEffects { Console.error(line(for: dropped, documentPath: path)) }
        return (loaded, timeline)
    }

    /// Prints each problem as `PATH:LINE:COLUMN: json.path: message` to standard error.
    static func print(_ error: DocumentError, documentPath path: String) {
        for problem in error.problems {
            Console.error(line(for: problem, documentPath: path))
        }
        let count = error.problems.count
        Console.error("splice: \(path): \(count) problem\(count == 1 ? "" : "s")")
    }

    /// `PATH:LINE:COLUMN: problem` (the line and column when known).
    static func line(for problem: DocumentProblem, documentPath path: String) -> String {
        let place = problem.line.flatMap { line in problem.column.map { ":\(line):\($0)" } } ?? ""
        return "\(path)\(place): \(problem)"
    }
}
