import Export
import Foundation
import SpliceFFmpeg
internal import CMedia

/// Measures the loudness of a file's sound with libavfilter's `ebur128` filter (EBU R128 / ITU-R BS.1770-4):
/// integrated loudness, loudness range and true peak (`peak=true`), as `ffmpeg -af ebur128=peak=true` prints them.
///
/// The file's first audio stream (FFmpeg's best one) is decoded whole on a worker thread of its own and fed to the
/// filter; the figures are the filter's running values after the last sample (its `lavfi.r128.*` frame metadata).
public enum LoudnessMeter {
    /// Measures `url`'s sound.
    /// - Returns: the integrated loudness (LUFS), loudness range (LU) and true peak (dBTP).
    /// - Throws: ``Export/AssetLoadingError`` when the file cannot be opened (missing, not media, damaged header);
    ///   ``LoudnessError/noAudio(_:)`` when it has no audio stream; ``LoudnessError/unreadable(_:reason:)`` when
    ///   its sound cannot be decoded; `CancellationError` when the task is cancelled.
    public static func measure(_ url: URL) async throws -> LoudnessMeasurement {
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await WorkerThread.run(name: "splice.loudness") { try measure(url, cancellation: cancellation) }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The blocking measurement (on the caller's thread).
    static func measure(_ url: URL, cancellation: CancellationFlag) throws -> LoudnessMeasurement {
        let input = try InputFile.open(url, cancellation: cancellation)
        guard let streamIndex = input.bestStreamIndex(of: AVMEDIA_TYPE_AUDIO) else { throw LoudnessError.noAudio(url) }
        do {
            return try measure(input, streamIndex: streamIndex)
        } catch let error as LoudnessError {
            throw error
        } catch {
            if FFmpegError.isCancellation(error, cancelled: cancellation.isCancelled) { throw CancellationError() }
            throw LoudnessError.unreadable(url, reason: FailureReason.words(for: error))
        }
    }

    private static func measure(_ input: InputFile, streamIndex: Int) throws -> LoudnessMeasurement {
        let decoder = try Decoder(stream: input.stream(at: streamIndex))
        var layout = decoder.channelLayoutOrDefault
        defer { av_channel_layout_uninit(&layout) }
        var name = [CChar](repeating: 0, count: 128)
        av_channel_layout_describe(&layout, &name, name.count)
        let graph = try FilterGraph(
            description: "[in]ebur128=peak=true:metadata=1[out]",
            sources: [.audio(.init(label: "in", sampleRate: decoder.sampleRate, sampleFormat: decoder.sampleFormat,
                                   channelLayout: String(cBuffer: name), timeBase: decoder.timeBase))],
            sinkLabels: ["out"], sinkIsAudio: [true], threads: 1)
        var meter = Readings()
        let packet = try Packet(), decoded = try Frame(), measured = try Frame()
        func drainGraph() throws {
            while try graph.pull(from: 0, into: measured) == .frame { meter.read(measured) }
        }
        func drainDecoder() throws -> Bool {
            while true {
                switch try decoder.receive(into: decoded) {
                case .frame:
                    decoded.fillUnspecifiedChannelLayout(with: layout)
                    try graph.push(decoded, to: 0)
                    try drainGraph()
                case .needsInput: return false
                case .endOfStream: return true
                }
            }
        }
        while try input.readPacket(into: packet) {
            defer { packet.unref() }
            guard packet.streamIndex == streamIndex else { continue }
            while try !decoder.send(packet) { _ = try drainDecoder() }
            _ = try drainDecoder()
        }
        _ = try decoder.send(nil)
        _ = try drainDecoder()
        try graph.push(nil, to: 0)
        try drainGraph()
        return meter.measurement
    }

    /// The filter's newest figures, from the `lavfi.r128.*` metadata of the frames it passes on.
    private struct Readings {
        var integrated = LoudnessNormalization.absoluteGate
        var range = 0.0
        var linearPeak = 0.0

        mutating func read(_ frame: Frame) {
            if let value = frame.metadataValue(forKey: "lavfi.r128.I").flatMap(Double.init) { integrated = value }
            if let value = frame.metadataValue(forKey: "lavfi.r128.LRA").flatMap(Double.init) { range = value }
            if let value = frame.metadataValue(forKey: "lavfi.r128.true_peak").flatMap(Double.init) {
                linearPeak = max(linearPeak, value)
            }
        }

        var measurement: LoudnessMeasurement {
            LoudnessMeasurement(integratedLoudness: integrated, loudnessRange: range,
                                truePeak: linearPeak > 0 ? 20 * log10(linearPeak) : -.infinity)
        }
    }
}
