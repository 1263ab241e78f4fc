import Foundation
import Splice

/// `splice export DOC.json --hls DIR [--dash DIR] [--ladder HEIGHT:RATE,…] [--segment-duration T] [--overwrite]`,
/// or `splice export DOC.json` of a document whose `export.package` asks for one: an adaptive-bitrate package
/// instead of one file.
enum PackageCommand {
    /// True when `arguments` ask for a package (`--hls` or `--dash`), or name no output file (`-o`) and the
    /// document asks for one (`export.package`).
    static func isRequested(_ arguments: CommandLineArguments) -> Bool {
        if arguments.has("hls") || arguments.has("dash") { return true }
        guard !arguments.has("output"), let document = arguments.operands.first else { return false }
        return DocumentPackage.isRequested(byDocumentAt: URL(fileURLWithPath: document))
    }

    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        if arguments.has("output") {
            throw Usage.fail("-o/--output writes one file; --hls/--dash write a package folder: give one or the other", command: .export)
        }
        if let other = ["smart", "segments", "loudness", "true-peak", "limit-true-peak"].first(where: arguments.has) {
            throw Usage.fail("--\(other) applies to a file export, not to --hls/--dash", command: .export)
        }
        let hls = arguments.value("hls"), dash = arguments.value("dash")
        if let hls, let dash, URL(fileURLWithPath: hls).standardizedFileURL != URL(fileURLWithPath: dash).standardizedFileURL {
            throw Usage.fail("--hls and --dash share one package folder (the same segments): give the same DIR to both", command: .export)
        }
        var ladder: AdaptiveBitrateLadder?
        if let text = arguments.value("ladder") {
            do throws(PackagingError) {
                let parsed = try AdaptiveBitrateLadder(parsing: text)
                try parsed.validate()
                ladder = parsed
            } catch {
                throw Usage.fail("--ladder: \(error)", command: .export)
            }
        }
        var segmentDuration: MediaTime?
        if let text = arguments.value("segment-duration") {
            guard let duration = try? TimeSyntax.parse(text), duration.isNumeric, duration > .zero else {
                throw Usage.fail("--segment-duration is a positive time (e.g. 4s, 6s), not '\(text)'", command: .export)
            }
            segmentDuration = duration
        }
        let loaded = try await DocumentLoading.load(arguments.operands[0], dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
        // The command line's folder, ladder and segment duration win over the document's `export.package`.
        var packager = loaded.makePackager(overwrite: arguments.has("overwrite"))
        if let ladder { packager.ladder = ladder }
        if let segmentDuration { packager.segmentDuration = segmentDuration }
        let folder: String
        if let given = hls ?? dash {
            folder = given
            packager.manifestFormats = Set([hls.map { _ in StreamingManifestFormat.hls }, dash.map { _ in .dash }].compactMap { $0 })
        } else if let documentFolder = loaded.packageFolder {
            folder = documentFolder.path
        } else {
            throw Usage.fail("--hls DIR or --dash DIR is required", command: .export)
        }
        let output = URL(fileURLWithPath: folder)
        do throws(PackagingError) {
            try packager.validate(output: output)
        } catch {
            Console.error("splice: cannot package \(arguments.operands[0]): \(message(error))")
            throw CommandExit(status: .invalidInput)
        }
        // SIGINT/SIGTERM cancel the task: the staging folder is removed, nothing appears at DIR.
        let task = Task { [packager] in try await packager.write(to: output) }
        let signals = SignalCancellation { task.cancel() }
        defer { signals.restore() }
        do {
            let package = try await task.value
            for rendition in package.videoRenditions {
                Console.error("\(rendition.name): \(rendition.size.map { "\($0.width)x\($0.height)" } ?? ""), "
                    + "\(rendition.segmentDurations.count) segments, peak \(rendition.peakBitRate / 1000) kb/s, "
                    + "average \(rendition.averageBitRate / 1000) kb/s")
            }
            if let audio = package.audioRendition {
                Console.error("\(audio.name): \(audio.segmentDurations.count) segments, average \(audio.averageBitRate / 1000) kb/s")
            }
            for manifest in [package.masterPlaylist, package.dashManifest].compactMap({ $0 }) { Console.error("wrote \(manifest.path)") }
        } catch is CancellationError {
            Console.error("splice: packaging cancelled; nothing was written")
            throw CommandExit(status: .cancelled)
        } catch let error as PackagingError {
            Console.error("splice: cannot package \(arguments.operands[0]): \(message(error))")
            switch error {
            case .encodingFailed, .writeFailed: throw CommandExit(status: .renderFailed)
            default: throw CommandExit(status: .invalidInput)
            }
        } catch {
            Console.error("splice: packaging failed: \(ExportMessages.text(error))")
            throw CommandExit(status: .renderFailed)
        }
    }

    private static func message(_ error: PackagingError) -> String {
        if case .outputExists(let url) = error { return "\(url.path) already exists (use --overwrite to replace it)" }
        return "\(error)"
    }
}
