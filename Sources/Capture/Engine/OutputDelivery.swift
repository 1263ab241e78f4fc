import Composition
import Foundation
import SpliceFFmpeg
internal import CMedia

extension SessionEngine {
    /// The session's outputs by kind, as the engine feeds them.
    struct Outputs: Sendable {
        var movie: [CaptureMovieFileOutput] = []
        var photo: [CapturePhotoOutput] = []
        var videoData: [CaptureVideoDataOutput] = []
        var audioData: [CaptureAudioDataOutput] = []
        var metadata: [CaptureMetadataOutput] = []
        var liveStream: [CaptureLiveStreamOutput] = []

        init(_ outputs: [any CaptureOutput]) {
            for output in outputs {
                if let movie = output as? CaptureMovieFileOutput { self.movie.append(movie) }
                if let photo = output as? CapturePhotoOutput { self.photo.append(photo) }
                if let video = output as? CaptureVideoDataOutput { videoData.append(video) }
                if let audio = output as? CaptureAudioDataOutput { audioData.append(audio) }
                if let codes = output as? CaptureMetadataOutput { metadata.append(codes) }
                if let stream = output as? CaptureLiveStreamOutput { liveStream.append(stream) }
            }
        }

        /// Ends the data outputs' streams and fails the photo requests still waiting (the session stopped).
        func finish() {
            for output in videoData { output.finishStream() }
            for output in audioData { output.finishStream() }
            for output in metadata { output.finishStream() }
            for output in photo { output.setAccepting(false) }
        }
    }
}

/// Feeds the photo, data and metadata outputs on the session's thread: converts each picture for the outputs that want
/// it (one ``FrameConverter`` per output; gray for a metadata output's scanner, only when it is idle), answers photo
/// requests with the frame just read, and hands sound to the audio data outputs. Every FFmpeg owner here lives and dies on the session's thread.
final class OutputDelivery {
    let outputs: SessionEngine.Outputs
    let stop: CancellationFlag
    private var converters: [ObjectIdentifier: FrameConverter] = [:]

    init(outputs: SessionEngine.Outputs, stop: CancellationFlag) {
        self.outputs = outputs
        self.stop = stop
    }

    /// Hands a picture from `device`, taken at session time `time` µs, to the photo and video data outputs.
    func deliverVideo(_ frame: Frame, at time: Int64, from device: CaptureDevice) {
        let presentationTime = MediaTime(value: time, timescale: 1_000_000)
        for output in outputs.videoData {
            guard let queue = output.activeQueue, let connection = Self.connection(of: output.connections, from: device) else {
                continue
            }
            let settings = output.videoSettings
            let target = FrameConverter.Target(width: settings.width, height: settings.height,
                                               pixelFormat: Self.pixelFormat(settings.pixelFormat),
                                               orientation: connection.frameOrientation)
            guard let converted = try? converter(for: output).convert(frame, to: target) else { continue }
            let bytesPerPixel = settings.pixelFormat.bytesPerPixel
            let picture = CaptureVideoFrame(
                width: converted.width, height: converted.height, bytesPerRow: converted.width * bytesPerPixel,
                pixels: FrameConverter.packedPixels(of: converted, bytesPerPixel: bytesPerPixel),
                pixelFormat: settings.pixelFormat, presentationTime: presentationTime)
            queue.deliver(picture, stop: stop) { $0.droppedFrameCountBefore = $1 }
        }
        for output in outputs.metadata {
            // Converted only when the scanner is idle: a busy scanner skips the picture and costs this thread nothing.
            guard let scanner = output.activeScanner, !scanner.types.isEmpty,
                  let connection = Self.connection(of: output.connections, from: device), scanner.takesPicture() else {
                continue
            }
            let target = FrameConverter.Target(width: nil, height: nil, pixelFormat: AV_PIX_FMT_GRAY8,
                                               orientation: connection.frameOrientation)
            guard let gray = try? converter(for: output).convert(frame, to: target) else { continue }
            scanner.offer(MetadataScanner.Picture(pixels: FrameConverter.packedPixels(of: gray, bytesPerPixel: 1),
                                                  width: gray.width, height: gray.height, time: presentationTime))
        }
        // A frame read as the session stops (the data outputs' back-pressure may have held it until then) answers
        // no photo: the requests still waiting fail with sessionNotRunning when the session has stopped.
        guard !stop.isCancelled else { return }
        for output in outputs.photo where output.hasRequests {
            guard let connection = Self.connection(of: output.connections, from: device) else { continue }
            for request in output.takeRequests() {
                let result: Result<CapturePhoto, CapturePhotoError>
                do {
                    result = .success(try photo(of: frame, at: presentationTime, settings: request.settings,
                                                orientation: connection.frameOrientation, device: device))
                } catch {
                    result = .failure(.encodingFailed(codec: request.settings.codec, reason: String(describing: error)))
                }
                request.continuation.resume(returning: result)
            }
        }
    }

    /// Hands sound from `device`, its first sample taken at session time `time` µs, to the audio data outputs.
    func deliverAudio(_ frame: Frame, at time: Int64, from device: CaptureDevice) {
        let outputs = outputs.audioData.compactMap { output -> (SampleQueue<CaptureAudioBuffer>, CaptureConnection)? in
            guard let connection = Self.connection(of: output.connections, from: device), let queue = output.activeQueue else {
                return nil
            }
            return (queue, connection)
        }
        guard !outputs.isEmpty else { return }
        var channels: [[Float]] = []
        frame.forEachChannel { _, samples in channels.append(samples) }
        for (queue, connection) in outputs {
            // Each connection's channels at their volume (AVFoundation's AVCaptureAudioChannel.volume).
            let volumes = connection.audioChannels.map(\.volume)
            let scaled = channels.enumerated().map { index, samples in
                let volume = index < volumes.count ? volumes[index] : 1
                return volume == 1 ? samples : samples.map { $0 * volume }
            }
            let buffer = CaptureAudioBuffer(presentationTime: MediaTime(value: time, timescale: 1_000_000),
                                            sampleRate: frame.sampleRate, channels: scaled)
            queue.deliver(buffer, stop: stop) { $0.droppedBufferCountBefore = $1 }
        }
    }

    /// The enabled connection of `connections` carrying `device`'s media.
    private static func connection(of connections: [CaptureConnection], from device: CaptureDevice) -> CaptureConnection? {
        connections.first { $0.inputDevice.uniqueID == device.uniqueID && $0.isEnabled }
    }

    private func converter(for output: AnyObject) throws -> FrameConverter {
        if let existing = converters[ObjectIdentifier(output)] { return existing }
        let converter = try FrameConverter()
        converters[ObjectIdentifier(output)] = converter
        return converter
    }

    private static func pixelFormat(_ format: CaptureVideoSettings.PixelFormat) -> AVPixelFormat {
        switch format {
        case .rgba8: return AV_PIX_FMT_RGBA
        case .bgra8: return AV_PIX_FMT_BGRA
        case .gray8: return AV_PIX_FMT_GRAY8
        }
    }

    /// Converts `frame` to the photo's format, turned, and encodes it.
    private func photo(of frame: Frame, at time: MediaTime, settings: CapturePhotoSettings, orientation: FrameOrientation,
                       device: CaptureDevice) throws -> CapturePhoto {
        let converter = try FrameConverter()
        let target = FrameConverter.Target(width: nil, height: nil,
                                           pixelFormat: settings.codec == .jpeg ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_RGB24,
                                           orientation: orientation)
        let picture = try converter.convert(frame, to: target)
        let date = Date()
        let description = "Splice capture of \(device.uniqueID) at \(String(format: "%.6f", time.seconds)) s on the session clock"
        let data = PhotoMetadataWriter.embed(into: try PhotoEncoder.encode(picture, codec: settings.codec), codec: settings.codec,
                                             width: picture.width, height: picture.height, description: description, date: date)
        return CapturePhoto(codec: settings.codec, width: picture.width, height: picture.height, timestamp: time,
                            creationDate: date, orientation: orientation.orientation, isMirrored: orientation.isMirrored,
                            deviceID: device.uniqueID, fileData: data)
    }
}
