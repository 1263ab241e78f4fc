import Foundation
import SpliceFFmpeg
internal import CMedia

/// The mix's last stage before the encoder, by FFmpeg's filters: planar float converted to the encoder's sample
/// format with `aformat` (libswresample underneath), and, when asked, a true-peak limiter first — the sound
/// oversampled 4× (`aresample`), limited by `alimiter` (lookahead with its delay compensated, `latency=1`, so no
/// sample moves; no automatic level) and resampled back — in frames of the encoder's size. Keeps rate and layout.
final class SampleFormatConverter {
    private let graph: FilterGraph
    private let output: Frame

    /// - Parameters:
    ///   - sampleFormat: the encoder's sample format.
    ///   - truePeakLimit: the limiter's ceiling in dBTP (−24…0), or nil for none.
    ///   - frameSize: samples per output frame (the encoder's), when the limiter regroups samples.
    init(format: AudioOutputFormat, to sampleFormat: AVSampleFormat, truePeakLimit: Double? = nil, frameSize: Int = 1024) throws {
        let name = av_get_sample_fmt_name(sampleFormat).map { String(cString: $0) } ?? "s16"
        let limiter = truePeakLimit.map { limit in
            let linear = min(max(pow(10, limit / 20), 0.0625), 1)
            return "aresample=\(format.sampleRate * 4),alimiter=limit=\(linear):level=0:latency=1:attack=5:release=50,"
                + "aresample=\(format.sampleRate),"
        } ?? ""
        graph = try FilterGraph(
            description: "[in]\(limiter)aformat=sample_fmts=\(name)[out]",
            sources: [.audio(.init(label: "in", sampleRate: format.sampleRate, sampleFormat: AV_SAMPLE_FMT_FLTP.rawValue,
                                   channelLayout: format.layoutName, timeBase: AVRational(num: 1, den: Int32(format.sampleRate))))],
            sinkLabels: ["out"], sinkIsAudio: [true], threads: 1)
        if truePeakLimit != nil { graph.setFrameSize(frameSize, forSink: 0) }
        output = try Frame()
    }

    /// Pushes `frame` through and hands every converted frame to `emit` (timestamps kept).
    func convert(_ frame: Frame, emit: (Frame) throws -> Void) throws {
        try graph.push(frame, to: 0, keepReference: true)
        try drain(emit)
    }

    /// Ends the input and hands what the filters still hold (the limiter's lookahead, the last short frame) to `emit`.
    func flush(emit: (Frame) throws -> Void) throws {
        try graph.push(nil, to: 0)
        try drain(emit)
    }

    private func drain(_ emit: (Frame) throws -> Void) throws {
        while try graph.pull(from: 0, into: output) == .frame {
            try emit(output)
            output.unref()
        }
    }
}
