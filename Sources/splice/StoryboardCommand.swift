import Foundation
import Splice

/// `splice storyboard DOC.json -o DIR [--every T] [--grid CxR] [--width W] [--name NAME] [--overwrite]`.
enum StoryboardCommand {
    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        guard let output = arguments.value("output") else {
            throw Usage.fail("-o/--output is required: the folder to write the sheets and the WebVTT track into", command: .storyboard)
        }
        var settings = StoryboardSettings()
        if let text = arguments.value("every") {
            do {
                settings.interval = try TimeSyntax.parse(text)
            } catch {
                throw Usage.fail("--every: \(error)", command: .storyboard)
            }
        }
        if let text = arguments.value("grid") {
            let parts = text.lowercased().split(separator: "x").map { Int($0) }
            guard parts.count == 2, let columns = parts[0], let rows = parts[1] else {
                throw Usage.fail("--grid is COLUMNSxROWS, e.g. 5x5, not '\(text)'", command: .storyboard)
            }
            settings.columns = columns
            settings.rows = rows
        }
        if let text = arguments.value("width") {
            guard let width = Int(text) else { throw Usage.fail("--width is a whole number of pixels, not '\(text)'", command: .storyboard) }
            settings.tileWidth = width
        }
        do throws(StoryboardError) {
            try settings.validate()
        } catch {
            throw Usage.fail("\(error)", command: .storyboard)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue else {
            Console.error("splice: \(output) is not an existing folder")
            throw CommandExit(status: .invalidInput)
        }
        // An unwritable folder is the caller's to fix (docs/cli.md: exit 1), found before any rendering.
        try OutputLocation.checkFolder(URL(fileURLWithPath: output, isDirectory: true), for: output)
        let loaded = try await DocumentLoading.load(arguments.operands[0])
        var generator = StoryboardGenerator(asset: loaded.composition, settings: settings)
        generator.videoComposition = loaded.videoComposition
        generator.overwritesExistingFiles = arguments.has("overwrite")
        // SIGINT/SIGTERM cancel the task: the generator removes the sheets it has not moved into place.
        let name = arguments.value("name") ?? "storyboard"
        let task = Task { [generator] in try await generator.write(to: URL(fileURLWithPath: output), name: name) }
        let signals = SignalCancellation { task.cancel() }
        defer { signals.restore() }
        do {
            let storyboard = try await task.value
            Console.error("wrote \(storyboard.sheets.count) sheet\(storyboard.sheets.count == 1 ? "" : "s") and \(storyboard.webVTT.path) "
                + "(\(storyboard.tiles.count) thumbnails of \(storyboard.tileSize.width)x\(storyboard.tileSize.height))")
        } catch is CancellationError {
            throw CommandExit(status: .cancelled)
        } catch let error as StoryboardError {
            switch error {
            case .invalidSettings:  // out of the range the document sets (a width wider than the picture), or the name
                throw Usage.fail("\(error)", command: .storyboard)
            case .writeFailed:
                Console.error("splice: cannot write the storyboard: \(error)")
                throw CommandExit(status: .renderFailed)
            default:
                Console.error("splice: cannot write the storyboard: \(error)")
                throw CommandExit(status: .invalidInput)
            }
        } catch {
            Console.error("splice: cannot write the storyboard: \(error)")
            throw CommandExit(status: .renderFailed)
        }
    }
}
