import Foundation
import Splice

/// `splice plan`, `splice render-segment` and `splice join`: a segmented export's three steps, which any scheduler
/// can run (docs/cli.md, "Segmented export").
enum SegmentCommands {
    /// `splice plan DOC.json --segments N -o PLAN.json [--parts DIR]`.
    static func plan(_ arguments: CommandLineArguments) async throws(CommandExit) {
        guard let output = arguments.value("output") else {
            throw Usage.fail("-o/--output is required: the plan file to write", command: .plan)
        }
        guard let count = Int(arguments.value("segments") ?? ""), count >= 1 else {
            throw Usage.fail("--segments N is required: a whole number ≥ 1", command: .plan)
        }
        // The plan file is replaced when it exists (running a step twice costs nothing); its folder must exist.
        try OutputLocation.check(output, existing: .replace)
        let documentURL = URL(fileURLWithPath: arguments.operands[0]).standardizedFileURL
        let loaded = try await DocumentLoading.load(arguments.operands[0])
        let planURL = URL(fileURLWithPath: output).standardizedFileURL
        let parts = arguments.value("parts").map { URL(fileURLWithPath: $0).standardizedFileURL }
            ?? planURL.deletingPathExtension().appendingPathExtension("parts")
        let plan: SegmentPlan
        do {
            plan = try loaded.makeSegmentedExport().makePlan(
                segmentCount: count, fileType: loaded.export.fileType ?? .mp4, documentPath: documentURL.path,
                partsDirectory: parts)
            try SegmentPlanFile.write(plan, to: planURL)
        } catch {
            Console.error("splice plan: \(ExportMessages.text(error))")
            throw CommandExit(status: .invalidInput, detail: "\(error)")
        }
        for segment in plan.segments {
            Console.out("segment \(segment.index): frames \(segment.firstFrame)..<\(segment.firstFrame + segment.frameCount) "
                + "(\(segment.frameCount) frames, \(segment.timeRange.start.secondsText) – \(segment.timeRange.end.secondsText))")
        }
        Console.out("plan: \(planURL.path) (\(plan.segments.count) segments, parts in \(plan.partsDirectory))")
    }

    /// `splice render-segment PLAN.json --index I` (default: `$SLURM_ARRAY_TASK_ID`, then `$JOB_COMPLETION_INDEX`).
    static func renderSegment(_ arguments: CommandLineArguments) async throws(CommandExit) {
        let environment = ProcessInfo.processInfo.environment
        guard let text = arguments.value("index") ?? environment["SLURM_ARRAY_TASK_ID"] ?? environment["JOB_COMPLETION_INDEX"],
              let index = Int(text) else {
            throw Usage.fail("--index I is required (or $SLURM_ARRAY_TASK_ID / $JOB_COMPLETION_INDEX)", command: .renderSegment)
        }
        let (plan, export) = try await load(arguments.operands[0])
        // An index outside the plan is a value outside the option's range (a usage error), refused before any work.
        guard plan.segments.contains(where: { $0.index == index }) else {
            let count = plan.segments.count
            throw Usage.fail("--index \(index) is not a segment of \(arguments.operands[0]): it has \(count) (0...\(max(count - 1, 0)))",
                             command: .renderSegment)
        }
        do {
            let rendered = try await export.renderSegment(index, of: plan)
            Console.out("segment \(index): \(rendered ? "rendered" : "already complete") (\(plan.partURL(index).path))")
        } catch {
            throw failure("render-segment", error)
        }
    }

    /// `splice join PLAN.json -o OUT [--overwrite] [--fragment-interval TIME]`.
    static func join(_ arguments: CommandLineArguments) async throws(CommandExit) {
        guard let output = arguments.value("output") else {
            throw Usage.fail("-o/--output is required: the file to write", command: .join)
        }
        let fragmentInterval = try ExportCommand.movieFragmentInterval(arguments, command: .join)
        let (plan, export) = try await load(arguments.operands[0])
        let outputURL = URL(fileURLWithPath: output)
        if FileType(pathExtension: outputURL.pathExtension) != plan.fileType {
            throw Usage.fail("the plan's parts are .\(plan.fileType.rawValue); write the joined file as .\(plan.fileType.rawValue)", command: .join)
        }
        // Before the audio is rendered and the parts are read.
        try OutputLocation.check(output, existing: arguments.has("overwrite") ? .replace : .refuseUnlessOverwrite)
        do {
            try await export.join(plan, to: outputURL, overwrite: arguments.has("overwrite"),
                                  movieFragmentInterval: fragmentInterval ?? .invalid)
            Console.out("joined \(plan.segments.count) segments into \(outputURL.path)")
        } catch {
            throw failure("join", error)
        }
    }

    /// The plan at `path` and the segmented export of its document (with the plan's settings).
    static func load(_ path: String) async throws(CommandExit) -> (SegmentPlan, SegmentedExport) {
        let plan: SegmentPlan
        do {
            plan = try SegmentPlanFile.read(from: URL(fileURLWithPath: path))
        } catch {
            Console.error("splice: \(error)")
            throw CommandExit(status: .invalidInput, detail: "\(error)")
        }
        var export = try await DocumentLoading.load(plan.documentPath).makeSegmentedExport()
        export.settings = plan.settings
        return (plan, export)
    }

    /// Prints a step's failure and gives the exit: 130 when cancelled; 1 when the plan, its document or the output
    /// location is at fault (refused before anything is rendered); 3 when rendering, reading a part or writing failed.
    static func failure(_ step: String, _ error: any Error) -> CommandExit {
        if error is CancellationError {
            Console.error("splice \(step): cancelled; no file was written")
            return CommandExit(status: .cancelled)
        }
        Console.error("splice \(step): \(ExportMessages.text(error))")
        return CommandExit(status: isInvalidInput(error) ? .invalidInput : .renderFailed, detail: "\(error)")
    }

    /// True for the refusals made before anything is rendered (the planning checks): the plan or its document
    /// cannot be used, or the output cannot be written there. A source that cannot be read is not among them: it
    /// can also fail part-way.
    static func isInvalidInput(_ error: any Error) -> Bool {
        switch error {
        case let error as SegmentError:
            switch error {
            case .noSuchSegment, .invalidPlan, .customCompositorRequired: return true
            case .partMissing, .partDamaged, .audioDamaged: return false
            }
        case let error as ExportError:
            switch error {
            case .outputFileExists, .outputNotWritable, .invalidComposition, .invalidVideoComposition, .invalidAudioMix,
                 .encoderUnavailable, .filterUnavailable, .unsupportedSettings, .passthroughNotPossible:
                return true
            default:
                return false
            }
        default:
            return false
        }
    }
}
