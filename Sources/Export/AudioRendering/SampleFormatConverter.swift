import SpliceFFmpeg
internal import CMedia

/// Converts planar-float frames to another sample format with FFmpeg's `aformat` (libswresample underneath),
/// keeping rate, layout and frame sizes.
final class SampleFormatConverter {
    private let graph: FilterGraph
    private let output: Frame

    init(format: AudioOutputFormat, to sampleFormat: AVSampleFormat) throws {
        let name = av_get_sample_fmt_name(sampleFormat).map { String(cString: $0) } ?? "s16"
        graph = try FilterGraph(
            description: "[in]aformat=sample_fmts=\(name)[out]",
            sources: [.audio(.init(label: "in", sampleRate: format.sampleRate, sampleFormat: AV_SAMPLE_FMT_FLTP.rawValue,
                                   channelLayout: format.layoutName, timeBase: AVRational(num: 1, den: Int32(format.sampleRate))))],
            sinkLabels: ["out"], sinkIsAudio: [true], threads: 1)
        output = try Frame()
    }

    /// Pushes `frame` through and hands every converted frame to `emit` (timestamps kept).
    func convert(_ frame: Frame, emit: (Frame) throws -> Void) throws {
        try graph.push(frame, to: 0, keepReference: true)
        while try graph.pull(from: 0, into: output) == .frame {
            try emit(output)
            output.unref()
        }
    }
}
