import Foundation
import Splice

/// `splice export DOC.json -o OUT [--overwrite] [--smart] [--segments N] [--fragment-interval TIME] [--loudness LUFS]
/// [--true-peak DBTP] [--limit-true-peak] [--progress MODE]`; `-o CAPTIONS.srt|.vtt|.ass [--track ID]` writes a subtitle track alone.
enum ExportCommand {
    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        if PackageCommand.isRequested(arguments) { return try await PackageCommand.run(arguments) }
        if let lone = ["ladder", "segment-duration"].first(where: arguments.has) {
            throw Usage.fail("--\(lone) applies to a package: give --hls DIR or --dash DIR", command: .export)
        }
        guard let output = arguments.value("output") else {
            throw Usage.fail("-o/--output is required: the file to write", command: .export)
        }
        var segments: Int?
        if let text = arguments.value("segments") {
            guard let count = Int(text), count >= 1 else {
                throw Usage.fail("--segments N must be a whole number ≥ 1 (1: one ordinary export)", command: .export)
            }
            segments = count
        }
        let fragmentInterval = try movieFragmentInterval(arguments, command: .export)
        var loudness = LoudnessNormalization?.none
        if !arguments.has("loudness"), let lone = ["true-peak", "limit-true-peak"].first(where: arguments.has) {
            // Both only qualify a loudness target; alone they would normalise to a target nobody asked for.
            throw Usage.fail("--\(lone) needs --loudness LUFS (e.g. --loudness -16 --true-peak -1)", command: .export)
        }
        if arguments.has("loudness") {
            guard let target = Double(arguments.value("loudness") ?? "-23"), let ceiling = Double(arguments.value("true-peak") ?? "-1") else {
                throw Usage.fail("--loudness LUFS and --true-peak DBTP are numbers (e.g. --loudness -16 --true-peak -1)", command: .export)
            }
            loudness = LoudnessNormalization(integratedLoudness: target, truePeakCeiling: ceiling,
                                             usesTruePeakLimiter: arguments.has("limit-true-peak"))
            do throws(LoudnessError) {
                try loudness?.validate()
            } catch {
                throw Usage.fail("\(error)", command: .export)
            }
        }
        let mode = ProgressReporter.Mode(rawValue: arguments.value("progress") ?? (Console.errorIsTerminal ? "bar" : "plain")) ?? .plain
        let loaded: LoadedDocument
        do {
            loaded = try await DocumentLoading.load(
                arguments.operands[0], dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
        } catch {
            if mode == .json {
                let message = error.status == .cancelled ? nil : error.detail ?? "\(arguments.operands[0]) cannot be loaded"
                Console.out(ProgressEvent(event: message == nil ? "cancelled" : "failed", exitCode: error.status.rawValue, error: message).line)
            }
            throw error
        }
        loudness = loudness ?? loaded.export.loudness
        let outputURL = URL(fileURLWithPath: output)
        if ["srt", "vtt", "ass", "ssa"].contains(outputURL.pathExtension.lowercased()) {
            return try await writeSubtitles(of: loaded, to: outputURL, arguments)
        }
        if arguments.has("track") {
            throw Usage.fail("--track applies to a subtitle file: -o CAPTIONS.srt, .vtt or .ass", command: .export)
        }
        if loaded.export.fileType == nil, FileType(pathExtension: outputURL.pathExtension) == nil {
            // The name's extension picks the container: one Splice does not write is a value outside -o's choices.
            throw Usage.fail("-o \(output): the extension picks the file type: .mp4, .m4v, .mov, .m4a, .mkv or .webm "
                             + "(or set export.fileType in the document)", command: .export)
        }
        let session = loaded.makeExportSession(outputURL: outputURL, overwrite: arguments.has("overwrite"))
        if arguments.has("smart") { session.smartRendering = true }
        if let segments { session.concurrentSegments = segments }
        if let fragmentInterval { session.movieFragmentInterval = fragmentInterval }
        do {
            try await loaded.checkExport(session)  // every check export() makes before it writes, as `validate`
        } catch is CancellationError {
            throw CommandExit(status: .cancelled)
        } catch {
            let message: String
            if let error = error as? DocumentError, let problem = error.problems.first {
                message = DocumentLoading.line(for: problem, documentPath: arguments.operands[0])
                Console.error(message)
                Console.error("splice: cannot export \(arguments.operands[0])")
            } else {
                // A refusal of a value given on the command line names the option it came from.
                let text = ExportMessages.text(error)
                message = callerOption(refusedBy: text, arguments).map { "\($0): \(text)" } ?? text
                Console.error("splice: cannot export \(arguments.operands[0]): \(message)")
            }
            if mode == .json {
                Console.out(ProgressEvent(event: "failed", exitCode: ExitStatus.invalidInput.rawValue, error: message).line)
            }
            throw CommandExit(status: .invalidInput)
        }

        // Handlers first: a signal from here on cancels cleanly (also before export() starts).
        let signals = SignalCancellation(clearsLine: mode == .bar && Console.errorIsTerminal) { session.cancelExport() }
        defer { signals.restore() }
        let whole = TimeRange(start: .zero, duration: loaded.composition.duration)
        let exported = loaded.export.timeRange.map { $0.intersection(whole) } ?? whole
        var reporter = ProgressReporter(mode: mode)
        reporter.started(output: outputURL.path, duration: exported.duration.seconds)
        let updates = session.progressUpdates
        let progressTask = Task { [reporter] in
            var reporter = reporter
            for await progress in updates { reporter.update(progress) }
            return reporter
        }
        var normalized: LoudnessNormalizationReport?
        do {
            if let loudness {
                normalized = try await session.export(normalizingLoudness: loudness)
            } else {
                try await session.export()
            }
        } catch {
            progressTask.cancel()
            reporter = await progressTask.value
            if error is CancellationError || session.status == .cancelled {
                reporter.stopped(status: .cancelled, message: "export cancelled; no file was written")
                throw CommandExit(status: .cancelled)
            }
            if let error = error as? LoudnessError {
                reporter.stopped(status: .invalidInput, message: "cannot normalise the loudness: \(error)")
                throw CommandExit(status: .invalidInput)
            }
            reporter.stopped(status: .renderFailed, message: "export failed: \(ExportMessages.text(error))")
            throw CommandExit(status: .renderFailed)
        }
        reporter = await progressTask.value
        let attributes = try? FileManager.default.attributesOfItem(atPath: outputURL.path)
        let bytes = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        reporter.completed(output: outputURL.path, bytes: bytes)
        if let normalized, mode != .json {
            Console.error("loudness: the mix measured \(Console.number(normalized.measured.integratedLoudness, decimals: 1)) LUFS, "
                + "gain \(Console.number(normalized.gain, decimals: 2)) dB, "
                + (normalized.limiterLimit.map { "true peaks limited to \(Console.number($0, decimals: 1)) dBTP" }
                    ?? "true peak about \(Console.number(normalized.expectedTruePeak, decimals: 1)) dBTP"))
        }
        if let report = session.smartRenderReport, mode != .json {
            for line in report.description.split(separator: "\n") { Console.error("smart rendering: \(line)") }
        }
        if let report = session.passthroughReport, mode != .json {
            for track in report.audioTracks where track.isReencoded {
                Console.error("passthrough: \(track)")
            }
        }
        if session.fileLengthLimitReached {
            Console.error("splice: the file length limit was reached: the export stopped early")
        }
    }
}

extension ExportCommand {
    /// `--fragment-interval T` or `--segments N` as given, when `message` (an export refusal) is about the session
    /// property that option sets (`movieFragmentInterval`, `concurrentSegments`) and the option was given; else nil.
    static func callerOption(refusedBy message: String, _ arguments: CommandLineArguments) -> String? {
        for (option, property) in [("fragment-interval", "movieFragmentInterval"), ("segments", "concurrentSegments")]
        where message.contains(property) {
            if let value = arguments.value(option) { return "--\(option) \(value)" }
        }
        return nil
    }

    /// `--fragment-interval TIME` (`2s`, `00:02`, `60f`): the movie fragment interval of a fragmented MP4/MOV, or nil
    /// when the option is absent.
    /// - Throws: a usage failure of `command` for a time that does not parse or is not above 0.
    static func movieFragmentInterval(_ arguments: CommandLineArguments, command: CommandLineArguments.Command) throws(CommandExit) -> MediaTime? {
        guard let text = arguments.value("fragment-interval") else { return nil }
        let time: MediaTime
        do { time = try TimeSyntax.parse(text) } catch {
            throw Usage.fail("--fragment-interval: \(error)", command: command)
        }
        guard time.isNumeric, time > .zero else {
            throw Usage.fail("--fragment-interval takes a time above 0 (e.g. 2s), not '\(text)'", command: command)
        }
        return time
    }

    /// `splice export DOC.json -o CAPTIONS.srt|.vtt|.ass [--track ID] [--overwrite]`: one subtitle track of the
    /// document (`--track`, else its first) written alone as a sidecar file, its cues placed as the export places them
    /// (``Export/AssetExportSession/exportSubtitles(ofTrackWithID:to:)``).
    static func writeSubtitles(of loaded: LoadedDocument, to url: URL, _ arguments: CommandLineArguments) async throws(CommandExit) {
        let subtitleTracks = loaded.composition.tracks(withMediaType: .subtitle)
        let trackID: Int32
        if let text = arguments.value("track") {
            guard let id = Int32(text), subtitleTracks.contains(where: { $0.trackID == id }) else {
                throw Usage.fail("--track \(text): the document's subtitle tracks are "
                    + (subtitleTracks.isEmpty ? "none" : subtitleTracks.map { "\($0.trackID)" }.joined(separator: ", ")), command: .export)
            }
            trackID = id
        } else {
            guard let first = subtitleTracks.first else {
                Console.error("splice: cannot export \(arguments.operands[0]): the document has no subtitle track to write to \(url.lastPathComponent)")
                throw CommandExit(status: .invalidInput)
            }
            trackID = first.trackID
        }
        let session = loaded.makeExportSession(outputURL: url, overwrite: arguments.has("overwrite"))
        do {
            try await session.exportSubtitles(ofTrackWithID: trackID, to: url)
        } catch is CancellationError {
            throw CommandExit(status: .cancelled)
        } catch {
            Console.error("splice: cannot export \(arguments.operands[0]): \(ExportMessages.text(error))")
            switch error as? ExportError {
            case .writeFailed?, .sourceUnreadable?, .renderingFailed?: throw CommandExit(status: .renderFailed)
            default: throw CommandExit(status: .invalidInput)
            }
        }
        Console.error("wrote \(url.path) (subtitle track \(trackID))")
    }
}

/// Messages for export errors, with the command line's remedies.
enum ExportMessages {
    static func text(_ error: any Error) -> String {
        if let error = error as? ExportError, case .outputFileExists(let url) = error {
            return "\(url.path) already exists (use --overwrite to replace it)"
        }
        return "\(error)"
    }
}

/// Usage errors raised by commands after parsing.
enum Usage {
    /// Prints `splice COMMAND: message` and the help hint; returns the exit to throw.
    static func fail(_ message: String, command: CommandLineArguments.Command?) -> CommandExit {
        report(CommandLineArguments.UsageError(message: message, command: command))
        return CommandExit(status: .usage)
    }

    /// Prints a usage error with a pointer to the help.
    static func report(_ error: CommandLineArguments.UsageError) {
        if let command = error.command {
            Console.error("splice \(command.rawValue): \(error.message)")
            Console.error("Run 'splice \(command.rawValue) --help' for usage.")
        } else {
            Console.error("splice: \(error.message)")
            Console.error(Help.general)
        }
    }
}
