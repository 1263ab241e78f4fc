import Foundation
import Splice

/// `splice probe FILE… [--json] [--loudness]`.
enum ProbeCommand {
    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        if arguments.has("loudness") { return try await loudness(arguments) }
        var assets: [Asset] = []
        let failed = try await forEachFile(arguments.operands) { path in
            assets.append(try await Asset.load(from: URL(fileURLWithPath: path)))
        }
        if arguments.has("json") {
            do {
                if arguments.operands.count == 1, let asset = assets.first {
                    Console.out(try JSONText.pretty(probing: asset))
                } else if arguments.operands.count > 1 {
                    Console.out(try JSONText.pretty(probing: assets))
                }
            } catch {
                Console.error("splice: cannot write JSON: \(error)")
                throw CommandExit(status: .invalidInput)
            }
        } else {
            for (index, asset) in assets.enumerated() {
                if index > 0 { Console.out("") }
                Console.out(describe(asset))
            }
        }
        if failed { throw CommandExit(status: .invalidInput) }
    }

    /// The width of the media type column: the longest media type's name (`subtitle`), so none is cut.
    static let mediaTypeColumn = MediaType.allCases.map(\.rawValue.count).max() ?? 8

    /// The asset as a readable block: a header line, then one line per track (a subtitle track with its language,
    /// title, default and forced flags and cues; a timed metadata track with its handler and end), the container
    /// metadata and the chapters.
    static func describe(_ asset: Asset) -> String {
        let isStill = asset.tracks.contains { $0.video?.isStillImage ?? false }
        var lines = ["\(asset.url.path)", "  format    \(asset.formatName)",
                     "  duration  \(isStill ? "still image (any duration)" : exact(asset.duration))"]
        lines.append("  tracks    \(asset.tracks.count)")
        for track in asset.tracks {
            var parts = ["track \(track.trackID)", track.mediaType.rawValue.padding(toLength: mediaTypeColumn, withPad: " ", startingAt: 0),
                         track.codecName + (track.isDecodable ? "" : " (no decoder)")]
            if let video = track.video {
                var size = "\(video.naturalSize.width)x\(video.naturalSize.height)"
                let display = video.displaySize
                let rotation = JSONText.rotationDegrees(of: video.preferredTransform)
                if display != video.naturalSize || rotation != 0 {
                    size += " (shows \(display.width)x\(display.height)\(rotation != 0 ? ", rotated \(rotation)°" : ""))"
                }
                parts.append(size)
                if !video.isStillImage {
                    parts.append("\(Console.number(video.nominalFrameRate, decimals: 3)) fps" + (video.hasVariableFrameRate ? " (variable)" : ""))
                    if let frames = video.frameCount { parts.append("\(frames) frames") }
                }
                parts.append(video.pixelFormat)
                parts.append(colorDescription(video.color))
            }
            if let audio = track.audio {
                parts.append("\(audio.sampleRate) Hz")
                parts.append("\(audio.channelCount) ch (\(audio.channelLayout))")
            }
            if let subtitle = track.subtitle {
                parts.append("language \(track.languageCode ?? "und")")
                if let title = subtitle.title { parts.append("\"\(title)\"") }
                if subtitle.isDefault { parts.append("default") }
                if subtitle.isForced { parts.append("forced") }
                parts.append("\(subtitle.cueCount) cue\(subtitle.cueCount == 1 ? "" : "s") to \(track.timeRange.end.secondsText)")
            }
            if track.mediaType == .metadata {
                let handler = track.metadata?.first { $0.key == "handler_name" }?.value
                parts.append("timed metadata\(handler.map { " \"\($0)\"" } ?? "") to \(track.timeRange.end.secondsText)")
            }
            if track.mediaType == .video || track.mediaType == .audio, !(track.video?.isStillImage ?? false) {
                parts.append(exact(track.timeRange.duration))
            }
            if let rate = track.estimatedDataRate, track.subtitle == nil { parts.append("\(rate / 1000) kb/s") }
            lines.append("  " + parts.joined(separator: "  "))
        }
        let boilerplate: Set<String> = ["major_brand", "minor_version", "compatible_brands"]
        let metadata = asset.metadata.filter { !boilerplate.contains($0.key) }
        for (index, item) in metadata.prefix(8).enumerated() {
            lines.append((index == 0 ? "  metadata  " : "            ") + "\(item.key): \(item.value)")
        }
        if metadata.count > 8 { lines.append("            … \(metadata.count - 8) more (--json lists all)") }
        for (index, chapter) in asset.chapterMetadataGroups.enumerated() {
            lines.append((index == 0 ? "  chapters  " : "            ")
                + "\(chapter.timeRange.start.secondsText) – \(chapter.timeRange.end.secondsText)  \(chapter.title ?? "(untitled)")")
        }
        return lines.joined(separator: "\n")
    }

    /// `bt2020/arib-std-b67/bt2020nc limited 10-bit HDR (HLG)`: primaries/transfer/matrix, range, bit depth and
    /// dynamic range, then the HDR10 metadata when the file states it (`mastering 1000/0.0001 cd/m²`,
    /// `MaxCLL 1000 MaxFALL 400`).
    static func colorDescription(_ color: ColorProperties) -> String {
        var text = "\(color.primaries)/\(color.transfer)/\(color.matrix) \(color.range.rawValue) \(color.bitDepth)-bit "
            + color.dynamicRange.displayName
        if let display = color.masteringDisplay {
            text += " mastering \(Console.number(display.maxLuminance, decimals: 0))/\(display.minLuminance) cd/m²"
        }
        if let level = color.contentLightLevel {
            text += " MaxCLL \(level.maxContentLightLevel) MaxFALL \(level.maxFrameAverageLightLevel)"
        }
        return text
    }

    /// `4.000 s (4/1)`.
    static func exact(_ time: MediaTime) -> String {
        time.isNumeric ? "\(time)" : time.description
    }

    /// Runs `body` for each path in turn: a failure is printed and the others still run; cancellation ends the
    /// command. Returns true when one failed.
    static func forEachFile(_ paths: [String], _ body: (String) async throws -> Void) async throws(CommandExit) -> Bool {
        var failed = false
        for path in paths {
            do {
                try await body(path)
            } catch is CancellationError {
                throw CommandExit(status: .cancelled)
            } catch {
                Console.error("splice: \(error)")
                failed = true
            }
        }
        return failed
    }

    /// One file's loudness for `--loudness --json` (a true peak of digital silence, −∞, is null).
    struct LoudnessLine: Encodable {
        var path: String
        var integratedLoudness: Double
        var loudnessRange: Double
        var truePeak: Double?
    }

    /// `splice probe --loudness FILE…`: each file's EBU R128 figures (libavfilter's `ebur128`), one line per file or
    /// a JSON array with `--json`.
    static func loudness(_ arguments: CommandLineArguments) async throws(CommandExit) {
        var lines: [LoudnessLine] = []
        let failed = try await forEachFile(arguments.operands) { path in
            let measured = try await LoudnessMeter.measure(URL(fileURLWithPath: path))
            let line = LoudnessLine(path: path, integratedLoudness: measured.integratedLoudness,
                                    loudnessRange: measured.loudnessRange,
                                    truePeak: measured.truePeak.isFinite ? measured.truePeak : nil)
            lines.append(line)
            if !arguments.has("json") {
                func tenths(_ value: Double) -> String { String(format: "%.1f", value) }
                Console.out("\(path)  integrated \(tenths(line.integratedLoudness)) LUFS  range \(tenths(line.loudnessRange)) LU"
                    + "  true peak \(line.truePeak.map(tenths) ?? "-inf") dBTP")
            }
        }
        if arguments.has("json") {
            do {
                Console.out(try JSONText.pretty(lines))
            } catch {
                Console.error("splice: cannot write JSON: \(error)")
                throw CommandExit(status: .invalidInput)
            }
        }
        if failed { throw CommandExit(status: .invalidInput) }
    }
}
