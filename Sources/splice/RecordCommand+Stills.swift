import Foundation
import Splice

extension RecordCommand {
    /// `--still-every T` and `--still-format F`: a photo every T while recording.
    struct StillOptions: Sendable {
        var interval: MediaTime
        var codec: CapturePhotoSettings.Codec

        /// The options given, nil without `--still-every`.
        /// - Throws: a usage exit for a time that does not parse or is not positive.
        init?(_ arguments: CommandLineArguments) throws(CommandExit) {
            guard let text = arguments.value("still-every") else { return nil }
            let interval: MediaTime
            do { interval = try TimeSyntax.parse(text) } catch {
                Usage.report(CommandLineArguments.UsageError(message: "--still-every: \(error)", command: .record))
                throw CommandExit(status: .usage)
            }
            guard interval.isNumeric, interval > .zero else {
                Usage.report(CommandLineArguments.UsageError(message: "--still-every takes a time above 0, not '\(text)'",
                                                             command: .record))
                throw CommandExit(status: .usage)
            }
            self.interval = interval
            codec = arguments.value("still-format") == "png" ? .png : .jpeg
        }
    }

    /// Applies `--orientation` and `--mirrored` to every video connection of the running session.
    static func orient(_ session: CaptureSession, _ arguments: CommandLineArguments) {
        let orientation = arguments.value("orientation").flatMap(CaptureVideoOrientation.init(rawValue:))
        let mirrored = arguments.has("mirrored")
        guard orientation != nil || mirrored else { return }
        for connection in session.outputs.flatMap(\.connections) where connection.isVideoOrientationSupported {
            if let orientation { connection.videoOrientation = orientation }
            connection.isVideoMirrored = mirrored
        }
    }

    /// The gain of `--volume G`, nil without it.
    /// - Throws: a usage exit for a gain that does not parse or is outside 0…1 (``CaptureAudioChannelError``).
    static func volume(_ arguments: CommandLineArguments) throws(CommandExit) -> Float? {
        guard let text = arguments.value("volume") else { return nil }
        guard let volume = Float(text), volume >= 0, volume <= 1 else {
            let reason = CaptureAudioChannelError.volumeOutOfRange(Float(text) ?? .nan)
            Usage.report(CommandLineArguments.UsageError(message: "--volume '\(text)': \(reason)", command: .record))
            throw CommandExit(status: .usage)
        }
        return volume
    }

    /// Sets every channel of the running session's audio connections to `volume`.
    static func setVolume(_ volume: Float, in session: CaptureSession) {
        for channel in session.outputs.flatMap(\.connections).flatMap(\.audioChannels) { try? channel.setVolume(volume) }
    }

    /// Takes a photo every `options.interval` of wall time until cancelled, each written beside `movie` as
    /// `NAME-still-0001.jpg` (never over an existing file). Returns how many were written.
    static func takeStills(_ options: StillOptions, output: CapturePhotoOutput, beside movie: URL) -> Task<Int, Never> {
        Task {
            let base = movie.deletingPathExtension().lastPathComponent
            var written = 0
            while !Task.isCancelled {
                do { try await Task.sleep(nanoseconds: UInt64(options.interval.seconds * 1e9)) } catch { break }
                let photo: CapturePhoto
                do throws(CapturePhotoError) {
                    photo = try await output.capturePhoto(with: CapturePhotoSettings(codec: options.codec))
                } catch {
                    if case .sessionNotRunning = error { break }
                    Console.error("splice: still: \(error)")
                    continue
                }
                let name = "\(base)-still-\(String(format: "%04d", written + 1)).\(options.codec.fileExtension)"
                let url = movie.deletingLastPathComponent().appendingPathComponent(name)
                do {
                    try photo.fileDataRepresentation().write(to: url, options: .withoutOverwriting)
                    written += 1
                    Console.error("still \(written): \(url.path) (\(photo.width)×\(photo.height), at \(Console.number(photo.timestamp.seconds)) s)")
                } catch {
                    Console.error("splice: still \(url.path) not written: \(error.localizedDescription)")
                }
            }
            return written
        }
    }
}
