import Foundation
import Splice

/// `splice convert IN -o OUT [--overwrite] [--drop-unsupported-effects]`: between composition documents (`.json`)
/// and OpenTimelineIO timelines (`.otio`), the direction given by the two names' extensions.
enum ConvertCommand {
    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        guard let output = arguments.value("output") else {
            throw Usage.fail("-o/--output is required: the .json document or .otio timeline to write", command: .convert)
        }
        let input = arguments.operands[0]
        let outputURL = URL(fileURLWithPath: output)
        let writesTimeline = OpenTimelineIO.isTimelineFile(outputURL)
        guard writesTimeline || outputURL.pathExtension.lowercased() == "json" else {
            throw Usage.fail("the output is a document (.json) or a timeline (.otio): give a name ending in one of them", command: .convert)
        }
        try OutputLocation.check(output, existing: arguments.has("overwrite") ? .replace : .refuseUnlessOverwrite)
        // A timeline converted to a timeline keeps its name, metadata and global start time.
        let (loaded, timeline) = try await DocumentLoading.loadWithTimeline(
            input, dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
        let text: String
        do {
            if writesTimeline {
                // Nested compositions are written as nested Stacks of their own tracks.
                let nested = try await OpenTimelineIO.nestedCompositions(of: loaded)
                text = try OpenTimelineIO.text(
                    for: loaded, timeline: timeline, nested: nested, relativeTo: outputURL.deletingLastPathComponent())
            } else {
                text = try loaded.expandedJSON(relativeTo: outputURL.deletingLastPathComponent())
            }
        } catch {
            Console.error("splice: cannot convert \(input): \(error)")
            throw CommandExit(status: .invalidInput)
        }
        do {
            try Data(text.utf8).write(to: outputURL, options: .atomic)
        } catch {
            Console.error("splice: cannot write \(output): \(error.localizedDescription)")
            throw CommandExit(status: .renderFailed)
        }
        Console.error("wrote \(output) (\(writesTimeline ? "OpenTimelineIO timeline" : "composition document"), \(DocumentCommands.describe(loaded)))")
    }
}
