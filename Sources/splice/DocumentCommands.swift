import Foundation
import Splice

/// `splice graph`, `splice validate` and `splice expand`: commands that read a document and print about it.
enum DocumentCommands {
    /// `splice graph DOC.json`: the export's filter graphs.
    static func graph(_ arguments: CommandLineArguments) async throws(CommandExit) {
        let loaded = try await DocumentLoading.load(
            arguments.operands[0], dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
        do {
            Console.out(try planningSession(for: loaded).filterGraphDescription())
        } catch {
            Console.error("splice: cannot plan the export of \(arguments.operands[0]): \(error)")
            throw CommandExit(status: .invalidInput)
        }
    }

    /// `splice expand DOC.json`: the full form.
    static func expand(_ arguments: CommandLineArguments) async throws(CommandExit) {
        let loaded = try await DocumentLoading.load(
            arguments.operands[0], dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
        do {
            Console.out(try loaded.expandedJSON().trimmingCharacters(in: .newlines))
        } catch {
            Console.error("splice: cannot write the expanded document: \(error)")
            throw CommandExit(status: .invalidInput)
        }
    }

    /// `splice validate DOC.json [--json]`: every problem, exit 0 when there is none.
    static func validate(_ arguments: CommandLineArguments) async throws(CommandExit) {
        let path = arguments.operands[0]
        let json = arguments.has("json")
        var problems: [DocumentProblem] = []
        var summary = ""
        do {
            let loaded = try await DocumentLoading.document(
                at: path, dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
            // Exactly the checks export makes before it writes (one code path: AssetExportSession.validate()).
            try await loaded.checkExport(planningSession(for: loaded, output: arguments.value("output")))
            summary = describe(loaded)
        } catch let error as DocumentError {
            problems = error.problems
        } catch is CancellationError {
            throw CommandExit(status: .cancelled)
        } catch {
            problems = [DocumentProblem(path: DocumentPath(), message: "\(error)")]
        }
        if json {
            let report = ValidationReport(valid: problems.isEmpty, problems: problems.map(ValidationReport.Problem.init))
            Console.out((try? JSONText.pretty(report)) ?? "{\"valid\": \(problems.isEmpty)}")
        } else if problems.isEmpty {
            Console.out("\(path): valid — \(summary)")
        } else {
            for problem in problems { Console.error(DocumentLoading.line(for: problem, documentPath: path)) }
            Console.error("splice: \(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        }
        if !problems.isEmpty { throw CommandExit(status: .invalidInput) }
    }

    /// A session whose only use is checking: it writes to a file name in the temporary directory that does not
    /// exist (planning checks the output location), with `output`'s extension when given (`-o out.webm`), else the
    /// document's file type, else `.mp4` — so the container and codecs checked are the ones export would use.
    static func planningSession(for loaded: LoadedDocument, output: String? = nil) -> AssetExportSession {
        let given = output.map { URL(fileURLWithPath: $0).pathExtension } ?? ""
        let pathExtension = !given.isEmpty ? given
            : (loaded.export.fileType ?? (loaded.export.preset == .appleM4A ? .m4a : .mp4)).rawValue
        let url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("splice-plan-\(UUID().uuidString).\(pathExtension)")
        return loaded.makeExportSession(outputURL: url)
    }

    /// `short form, 8.000 s, 640x360 at 30 fps, 2 video + 3 audio tracks, 1 overlay`.
    static func describe(_ loaded: LoadedDocument) -> String {
        let composition = loaded.composition
        let video = loaded.videoComposition ?? MutableVideoComposition(propertiesOf: composition)
        var parts = ["\(loaded.form.rawValue) form", composition.duration.secondsText]
        let rate = video.frameDuration.isNumeric && video.frameDuration.value > 0
            ? Console.number(Double(video.frameDuration.timescale) / Double(video.frameDuration.value)) : "?"
        parts.append("\(video.renderSize.width)x\(video.renderSize.height) at \(rate) fps")
        let videoCount = composition.tracks(withMediaType: .video).count
        let audioCount = composition.tracks(withMediaType: .audio).count
        parts.append("\(videoCount) video + \(audioCount) audio track\(videoCount + audioCount == 1 ? "" : "s")")
        if !video.overlays.isEmpty { parts.append("\(video.overlays.count) overlay\(video.overlays.count == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }
}

/// The JSON printed by `splice validate --json`.
struct ValidationReport: Encodable {
    struct Problem: Encodable {
        var path: String
        var line: Int?
        var column: Int?
        var message: String
        var inExpandedForm: Bool?

        init(_ problem: DocumentProblem) {
            path = problem.path.description
            line = problem.line
            column = problem.column
            message = problem.message
            inExpandedForm = problem.isInExpandedForm ? true : nil
        }
    }

    var valid: Bool
    var problems: [Problem]
}
