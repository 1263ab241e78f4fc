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
        let packager = loaded.makePackager(overwrite: arguments.has("overwrite"))
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
        // SIGINT/SIGTERM cancel the packaging: the build folder is removed, nothing appears at DIR.
        let mode = ProgressReporter.Mode(rawValue: arguments.value("progress") ?? (Console.errorIsTerminal ? "bar" : "plain")) ?? .plain
        let signals = SignalCancellation(clearsLine: mode == .bar && Console.errorIsTerminal) { packager.cancelPackaging() }
        defer { signals.restore() }
        var reporter = ProgressReporter(mode: mode)
        reporter.started(output: output.standardizedFileURL.path, duration: loaded.composition.duration.seconds)
        let updates = packager.progressUpdates
        let progressTask = Task { [reporter] in
            var reporter = reporter
            for await progress in updates { reporter.update(progress) }
            return reporter
        }
        let package: AdaptiveBitratePackage
        do {
            package = try await packager.write(to: output)
        } catch {
            progressTask.cancel()
            reporter = await progressTask.value
            if error is CancellationError {
                reporter.stopped(status: .cancelled, message: "packaging cancelled; nothing was written")
                throw CommandExit(status: .cancelled)
            }
            if let error = error as? PackagingError {
                switch error {
                case .encodingFailed, .writeFailed:
                    reporter.stopped(status: .renderFailed, message: "cannot package \(arguments.operands[0]): \(message(error))")
                    throw CommandExit(status: .renderFailed)
                default:
                    reporter.stopped(status: .invalidInput, message: "cannot package \(arguments.operands[0]): \(message(error))")
                    throw CommandExit(status: .invalidInput)
                }
            }
            reporter.stopped(status: .renderFailed, message: "packaging failed: \(ExportMessages.text(error))")
            throw CommandExit(status: .renderFailed)
        }
        reporter = await progressTask.value
        reporter.completed(output: package.directory.path, bytes: folderBytes(package.directory))
        guard mode != .json else { return }
        for rendition in package.videoRenditions {
            Console.error("\(rendition.name): \(rendition.size.map { "\($0.width)x\($0.height)" } ?? ""), "
                + "\(rendition.segmentDurations.count) segments, peak \(rendition.peakBitRate / 1000) kb/s, "
                + "average \(rendition.averageBitRate / 1000) kb/s")
        }
        if let audio = package.audioRendition {
            Console.error("\(audio.name): \(audio.segmentDurations.count) segments, average \(audio.averageBitRate / 1000) kb/s")
        }
        for subtitles in package.subtitleRenditions {
            Console.error("\(subtitles.name): WebVTT, \(subtitles.languageTag ?? "no language"), "
                + "\(subtitles.segmentDurations.count) segments")
        }
        for manifest in [package.masterPlaylist, package.dashManifest].compactMap({ $0 }) { Console.error("wrote \(manifest.path)") }
    }

    /// The bytes of the regular files under `folder`.
    private static func folderBytes(_ folder: URL) -> Int64 {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        var total: Int64 = 0
        while let file = files?.nextObject() as? URL {
            guard let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            total += Int64(values.fileSize ?? 0)
        }
        return total
    }

    private static func message(_ error: PackagingError) -> String {
        if case .outputExists(let url) = error { return "\(url.path) already exists (use --overwrite to replace it)" }
        return "\(error)"
    }
}
