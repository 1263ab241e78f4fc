import Foundation
import Splice

/// `splice frame DOC.json --at TIME -o FRAME.png [--dynamic-range force-sdr|match-source] [--overwrite]`.
enum FrameCommand {
    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        guard let output = arguments.value("output") else {
            throw Usage.fail("-o/--output is required: the PNG file to write", command: .frame)
        }
        guard let atText = arguments.value("at") else {
            throw Usage.fail("--at is required: the time of the picture (e.g. --at 3.5s)", command: .frame)
        }
        guard output.lowercased().hasSuffix(".png") else {
            throw Usage.fail("the output is a PNG picture: give a file name ending in .png", command: .frame)
        }
        let outputURL = URL(fileURLWithPath: output)
        // The folder and an existing file are checked before any work (docs/cli.md: exit 1), as export's planner does.
        try OutputLocation.check(output, existing: arguments.has("overwrite") ? .replace : .refuseUnlessOverwrite)
        let loaded = try await DocumentLoading.load(
            arguments.operands[0], dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
        let videoComposition = loaded.videoComposition ?? MutableVideoComposition(propertiesOf: loaded.composition)
        let time: MediaTime
        do {
            time = try TimeSyntax.parse(atText, frameDuration: videoComposition.frameDuration)
        } catch {
            Console.error("splice: --at: \(error)")
            throw CommandExit(status: .usage)
        }
        let duration = loaded.composition.duration
        guard time.isNumeric, time >= .zero, time < duration else {
            // A value outside the option's range (here set by the document): a usage error, as a malformed time is.
            Console.error("splice: --at \(atText): the composition runs from 0 to \(duration.secondsText); pick a time inside it")
            throw CommandExit(status: .usage)
        }
        var generator = AssetImageGenerator(asset: loaded.composition)
        generator.videoComposition = loaded.videoComposition
        // The picture the export shows at that time, exactly (the key-frame-snapping default is for thumbnails).
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        // The parser allows only these two values.
        generator.dynamicRangePolicy = arguments.value("dynamic-range") == "match-source" ? .matchSource : .forceSDR
        do {
            let (image, actualTime) = try await generator.image(at: time)
            try image.write(to: outputURL)
            let depth = image.pixelFormat == .rgba64 ? "16-bit \(image.dynamicRange.displayName)" : "8-bit SDR"
            Console.error("wrote \(output) (\(image.width)x\(image.height) \(depth), the frame at \(actualTime.secondsText))")
        } catch is CancellationError {
            throw CommandExit(status: .cancelled)
        } catch let error as ExportError {
            Console.error("splice: cannot render the frame: \(error)")
            switch error {
            case .invalidComposition, .invalidVideoComposition, .invalidAudioMix, .sourceUnreadable, .unsupportedSettings:
                throw CommandExit(status: .invalidInput)
            default:
                throw CommandExit(status: .renderFailed)
            }
        } catch {
            Console.error("splice: cannot render the frame: \(error)")
            throw CommandExit(status: .renderFailed)
        }
    }
}

extension MediaTime {
    /// Seconds with three decimals: `3.500 s`.
    var secondsText: String {
        let text = description
        if let cut = text.range(of: " s (") { return String(text[..<cut.lowerBound]) + " s" }
        return text
    }
}
