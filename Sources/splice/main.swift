import Foundation
import Splice

// Picture-sized allocations stay mappings of their own, freed back to the system, threads share two heap arenas, and
// memory is resident only where it is touched (no transparent huge pages): lower peak RSS (ProcessHeap).
ProcessHeap.fixMmapThreshold()
ProcessHeap.limitArenas()
ProcessHeap.disableTransparentHugePages()

/// `splice`: the command-line tool over Splice's composition documents. See `splice --help` and docs/cli.md.
let status: ExitStatus
do {
    let arguments = try CommandLineArguments.parse(Array(CommandLine.arguments.dropFirst()))
    switch arguments.request {
    case .version:
        Console.out("splice \(Help.version)")
        Console.out(MediaLibrary.report)
        status = .success
    case .help(let command):
        Console.out(command.map(Help.text(for:)) ?? Help.general)
        status = .success
    case .run(let command):
        do {
            switch command {
            case .export: try await ExportCommand.run(arguments)
            case .probe: try await ProbeCommand.run(arguments)
            case .frame: try await FrameCommand.run(arguments)
            case .graph: try await DocumentCommands.graph(arguments)
            case .validate: try await DocumentCommands.validate(arguments)
            case .expand: try await DocumentCommands.expand(arguments)
            case .devices: try await DeviceCommands.devices(arguments)
            case .record: try await RecordCommand.run(arguments)
            case .repair: try DeviceCommands.repair(arguments)
            case .plan: try await SegmentCommands.plan(arguments)
            case .renderSegment: try await SegmentCommands.renderSegment(arguments)
            case .join: try await SegmentCommands.join(arguments)
            case .submit: try await SubmitCommand.run(arguments)
            case .convert: try await ConvertCommand.run(arguments)
            case .batch: try await BatchCommand.run(arguments)
            case .storyboard: try await StoryboardCommand.run(arguments)
            case .scan: try await ScanCommand.run(arguments)
            case .help: Console.out(Help.general)
            }
            status = .success
        } catch {
            status = error.status
        }
    }
} catch {
    Usage.report(error)
    status = .usage
}
exit(status.rawValue)
