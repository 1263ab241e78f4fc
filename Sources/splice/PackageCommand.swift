import Foundation
import Splice

/// `splice export DOC.json --hls DIR [--dash DIR] [--ladder HEIGHT:RATE,…] [--segment-duration T] [--overwrite]`:
/// an adaptive-bitrate package instead of one file.
enum PackageCommand {
    /// True when `arguments` ask for a package (`--hls` or `--dash`).
    static func isRequested(_ arguments: CommandLineArguments) -> Bool { arguments.has("hls") || arguments.has("dash") }

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
        guard let folder = hls ?? dash else { throw Usage.fail("--hls DIR or --dash DIR is required", command: .export) }
        var ladder = AdaptiveBitrateLadder.default
        if let text = arguments.value("ladder") {
            do {
                ladder = try parseLadder(text)
                try ladder.validate()
            } catch {
                throw Usage.fail("--ladder: \(error)", command: .export)
            }
        }
        var segmentDuration = MediaTime(seconds: 6)
        if let text = arguments.value("segment-duration") {
            guard let duration = try? TimeSyntax.parse(text), duration.isNumeric, duration > .zero else {
                throw Usage.fail("--segment-duration is a positive time (e.g. 4s, 6s), not '\(text)'", command: .export)
            }
            segmentDuration = duration
        }
        let loaded = try await DocumentLoading.load(arguments.operands[0], dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
        var packager = AdaptiveBitratePackager(asset: loaded.composition)
        packager.videoComposition = loaded.videoComposition
        packager.audioMix = loaded.audioMix
        packager.ladder = ladder
        packager.segmentDuration = segmentDuration
        packager.manifestFormats = Set([hls.map { _ in StreamingManifestFormat.hls }, dash.map { _ in .dash }].compactMap { $0 })
        packager.overwritesExistingOutput = arguments.has("overwrite")
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

    /// A ladder option's renditions: `HEIGHT:RATE[:CODEC]` separated by commas, the height optionally followed by
    /// `p`, the rate in bits per second with an optional `k` (×1000) or `M` (×1 000 000) suffix, the codec `h264`
    /// (the default) or `hevc`: `720p:3M,720p:2M:hevc,480p:1200k`.
    struct LadderSyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    static func parseLadder(_ text: String) throws -> AdaptiveBitrateLadder {
        let renditions = try text.split(separator: ",").map { item -> AdaptiveBitrateLadder.Rendition in
            let parts = item.split(separator: ":")
            let heightText = parts.first.map { $0.hasSuffix("p") ? $0.dropLast() : $0 }
            guard parts.count == 2 || parts.count == 3, let heightText, let height = Int(heightText),
                  let rate = bitRate(String(parts[1])),
                  let codec = parts.count == 3 ? VideoSettings.Codec(rawValue: String(parts[2])) : .h264 else {
                throw LadderSyntaxError(description: "'\(item)' is not HEIGHT:RATE[:CODEC] (e.g. 720p:3M, 480:1200k, 720p:2M:hevc)")
            }
            return AdaptiveBitrateLadder.Rendition(height: height, bitRate: rate, codec: codec)
        }
        return AdaptiveBitrateLadder(renditions: renditions)
    }

    private static func bitRate(_ text: String) -> Int? {
        let multipliers: [Character: Double] = ["k": 1_000, "K": 1_000, "M": 1_000_000, "m": 1_000_000]
        var number = Substring(text), multiplier = 1.0
        if let last = text.last, let scale = multipliers[last] {
            number = text.dropLast()
            multiplier = scale
        }
        guard let value = Double(number), value.isFinite else { return nil }
        return Int((value * multiplier).rounded())
    }
}
