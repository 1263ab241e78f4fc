import Foundation
import Splice

/// `splice frame DOC.json --at TIME -o FRAME.png|POSTER.jpg [--dynamic-range force-sdr|match-source] [--overwrite]`.
enum FrameCommand {
    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        guard let output = arguments.value("output") else {
            throw Usage.fail("-o/--output is required: the PNG (or JPEG poster) file to write", command: .frame)
        }
        guard let atText = arguments.value("at") else {
            throw Usage.fail("--at is required: the time of the picture (e.g. --at 3.5s)", command: .frame)
        }
        let isJPEG = [".jpg", ".jpeg"].contains { output.lowercased().hasSuffix($0) }
        guard output.lowercased().hasSuffix(".png") || isJPEG else {
            throw Usage.fail("the output is a PNG picture or a JPEG poster: give a file name ending in .png, .jpg or .jpeg", command: .frame)
        }
        if isJPEG && arguments.value("dynamic-range") == "match-source" {
            throw Usage.fail("a JPEG poster is 8-bit SDR: --dynamic-range match-source needs a .png output", command: .frame)
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
        if isJPEG { return try await poster(loaded, at: time, to: outputURL, overwrite: arguments.has("overwrite")) }
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
            case .invalidComposition, .invalidVideoComposition, .invalidAudioMix, .sourceUnreadable, .sourceTruncated,
                 .unsupportedSettings:
                throw CommandExit(status: .invalidInput)
            default:
                throw CommandExit(status: .renderFailed)
            }
        } catch {
            Console.error("splice: cannot render the frame: \(error)")
            throw CommandExit(status: .renderFailed)
        }
    }

    /// The JPEG poster of the picture at `time` (``StoryboardGenerator/writePoster(at:to:maximumSize:)``: libavcodec's
    /// `mjpeg`, the exact picture the export shows then), written atomically.
    static func poster(_ loaded: LoadedDocument, at time: MediaTime, to url: URL, overwrite: Bool) async throws(CommandExit) {
        var generator = StoryboardGenerator(asset: loaded.composition)
        generator.videoComposition = loaded.videoComposition
        generator.overwritesExistingFiles = overwrite
        do {
            try await generator.writePoster(at: time, to: url)
            Console.error("wrote \(url.path) (a JPEG poster, the frame at \(time.secondsText))")
        } catch is CancellationError {
            throw CommandExit(status: .cancelled)
        } catch {
            Console.error("splice: cannot write the poster: \(error)")
            if let error = error as? StoryboardError, case .writeFailed = error { throw CommandExit(status: .renderFailed) }
            throw CommandExit(status: error is StoryboardError ? .invalidInput : .renderFailed)
        }
    }
}
